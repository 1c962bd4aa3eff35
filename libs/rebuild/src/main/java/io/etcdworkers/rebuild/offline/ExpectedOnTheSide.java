package io.etcdworkers.rebuild.offline;

import java.io.IOException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What etcd must serve of the database being written ({@link CompactedDatabase#expected}),
 * computed on a thread of its own while the writer fills the key bucket. Both walks read every
 * value, in different orders, and the digest's is mostly SHA-256: on a second core it costs no
 * wall time (at 300,000 events and 54,000 keys of 3 KB, 0.4-0.5 s that followed the write).
 *
 * <p>The thread is never interrupted (that would close the value files' channels under the
 * writer): {@link #abandon} has it stop at the next key and waits for it.
 */
final class ExpectedOnTheSide {
    private final AtomicBoolean stop = new AtomicBoolean();
    private final FutureTask<CompactedDatabase.Expected> task;
    private final Thread thread;

    private ExpectedOnTheSide(FoldedKeys live, long revision) {
        this.task = new FutureTask<>(() -> CompactedDatabase.expected(live, revision, stop::get));
        this.thread = new Thread(task, "digest-folded-keys");
        thread.setDaemon(true);
    }

    /** Starts the digest of {@code live} (settled first: the writer reads it at the same time). */
    static ExpectedOnTheSide start(FoldedKeys live, long revision) throws IOException {
        live.settle();
        ExpectedOnTheSide side = new ExpectedOnTheSide(live, revision);
        side.thread.start();
        return side;
    }

    /** Waits for the digest; its failure is rethrown as it was. */
    CompactedDatabase.Expected get() throws IOException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return Waits.result(task);
                } catch (InterruptedException e) {
                    // the digest ends on its own soon; the interrupt is kept for the caller
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Stops the digest at its next key and waits until its thread reads nothing more. */
    void abandon() {
        stop.set(true);
        if (Waits.joinUninterruptibly(thread)) {
            Thread.currentThread().interrupt();
        }
    }
}
