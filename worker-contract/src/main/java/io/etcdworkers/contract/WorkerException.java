package io.etcdworkers.contract;

import java.util.Objects;

/**
 * The one failure type of the workers: a message for a person at 3 a.m. (it names the object,
 * revision or path concerned) and the {@link ErrorCode} that decides the exit code.
 */
public class WorkerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public WorkerException(ErrorCode code, String message) {
        super(message);
        this.code = Objects.requireNonNull(code);
    }

    public WorkerException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = Objects.requireNonNull(code);
    }

    public ErrorCode code() {
        return code;
    }
}
