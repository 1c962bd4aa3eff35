package io.etcdworkers.rebuild.offline;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Waiting for the offline engine's own threads: their failures as they were, and joins an interrupt cannot cut short. */
final class Waits {
    private Waits() {}

    /** The task's result; its failure rethrown as it was (anything not unchecked as an {@link IOException}). */
    static <T> T result(Future<T> future) throws IOException, InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IOException(cause);
        }
    }

    /**
     * Waits until {@code thread} ended, however often this one is interrupted meanwhile.
     *
     * @return whether it was: the caller sets its interrupt flag again once its own cleanup, which
     *     the flag would cut short, is done
     */
    static boolean joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        return interrupted;
    }
}
