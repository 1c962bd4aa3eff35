package io.etcdworkers.rebuild.engine;

import io.etcdworkers.contract.ErrorCode;

/**
 * An engine cannot vouch for the database it would build (the offline engine does not understand
 * the base's layout, or etcd serves something other than what it computed); the message says why.
 * {@code --engine=auto} then replays; {@code --engine=offline} fails with {@link #code()}.
 */
public final class EngineRefused extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient ErrorCode code;

    public EngineRefused(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }
}
