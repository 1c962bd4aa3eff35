package io.etcdworkers.workercli;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.util.Optional;

/** Classifies whatever ended a command into the worker's one failure type. */
public final class WorkerFailures {
    private WorkerFailures() {}

    /**
     * After a stop signal every failure is an interruption (calls fail because they were
     * cancelled); otherwise a {@link WorkerException} keeps its code, an interruption is
     * {@link ErrorCode#INTERRUPTED} and anything else {@link ErrorCode#UNEXPECTED}. An exhausted
     * heap, wherever it surfaced, is {@link ErrorCode#OUT_OF_MEMORY} before all of these.
     */
    public static WorkerException of(Throwable t) {
        Optional<OutOfMemoryError> oom = outOfMemory(t);
        if (oom.isPresent()) {
            Optional<WorkerException> at = outOfMemoryAt(t);
            String message = String.format(
                    "the Java heap (at most %d MiB) ran out%s: %s. Give the worker more memory (job-launcher"
                            + " --memory-limit), or the JVM a larger -Xmx or -XX:MaxRAMPercentage",
                    Runtime.getRuntime().maxMemory() >> 20,
                    at.map(w -> " " + w.getMessage()).orElse(""),
                    oom.get().getMessage());
            Optional<String> object = at.flatMap(WorkerException::object);
            return object.isPresent()
                    ? new WorkerException(ErrorCode.OUT_OF_MEMORY, message, object.get(), t)
                    : new WorkerException(ErrorCode.OUT_OF_MEMORY, message, t);
        }
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

    /**
     * Where the heap ran out, when the code that was running said so: an {@link
     * ErrorCode#OUT_OF_MEMORY} in the causes, whose message is "while decoding ..." and whose
     * object the delta.
     */
    private static Optional<WorkerException> outOfMemoryAt(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof WorkerException w && w.code() == ErrorCode.OUT_OF_MEMORY) {
                return Optional.of(w);
            }
        }
        return Optional.empty();
    }

    /** The heap's exhaustion anywhere in the causes (a fetch thread's reaches the main thread wrapped). */
    static Optional<OutOfMemoryError> outOfMemory(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof OutOfMemoryError oom) {
                return Optional.of(oom);
            }
            for (Throwable s : c.getSuppressed()) {
                if (s instanceof OutOfMemoryError oom) {
                    return Optional.of(oom);
                }
            }
        }
        return Optional.empty();
    }
}
