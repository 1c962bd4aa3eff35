package io.etcdworkers.restore.workercli;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;

/** Classifies whatever ended a command into the worker's one failure type. */
public final class WorkerFailures {
    private WorkerFailures() {}

    /**
     * After a stop signal every failure is an interruption (calls fail because they were
     * cancelled); otherwise a {@link WorkerException} keeps its code, an interruption is
     * {@link ErrorCode#INTERRUPTED} and anything else {@link ErrorCode#UNEXPECTED}.
     */
    public static WorkerException of(Throwable t) {
        if (GracefulShutdown.requested() || t instanceof InterruptedException) {
            if (t instanceof WorkerException we && we.code() == ErrorCode.INTERRUPTED) {
                return we;
            }
            return new WorkerException(ErrorCode.INTERRUPTED, "stopped by a signal: " + t.getMessage(), t);
        }
        if (t instanceof WorkerException we) {
            return we;
        }
        return new WorkerException(ErrorCode.UNEXPECTED, "unexpected failure: " + t, t);
    }
}
