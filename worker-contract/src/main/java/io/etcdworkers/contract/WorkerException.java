package io.etcdworkers.contract;

import java.util.Objects;
import java.util.Optional;

/**
 * The one failure type of the workers: a message for a person at 3 a.m. (it names the object,
 * revision or path concerned) and the {@link ErrorCode} that decides the exit code.
 */
public class WorkerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    /** The backup object the failure concerns, when one does; null otherwise. */
    private final String object;

    public WorkerException(ErrorCode code, String message) {
        super(message);
        this.code = Objects.requireNonNull(code);
        this.object = null;
    }

    public WorkerException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = Objects.requireNonNull(code);
        this.object = null;
    }

    /** A failure about one backup object (its key), which the result JSON names as {@code object}. */
    public WorkerException(ErrorCode code, String message, String object, Throwable cause) {
        super(message, cause);
        this.code = Objects.requireNonNull(code);
        this.object = Objects.requireNonNull(object, "object");
    }

    public ErrorCode code() {
        return code;
    }

    /** The backup object (its key) the failure concerns, when it was given. */
    public Optional<String> object() {
        return Optional.ofNullable(object);
    }
}
