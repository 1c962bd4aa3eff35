package io.etcdworkers.etcd;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Stopping a child process (etcd, the snapshot restore tool) so that it is gone before anything
 * removes the dirs it writes: a child still running while its data dir is deleted goes on
 * writing there, and an etcd that has not opened its data dir yet recreates it as a new, empty
 * member (a 64 MB WAL) that nothing removes. An interrupt (a stop signal) shortens the wait for a
 * clean exit to none, never the wait for the process to be gone.
 */
final class ProcessStop {
    /**
     * How long a process killed with SIGKILL may take to be gone: the kernel ends it once a
     * system call in progress returns (a disk write under load can take seconds). Well inside the
     * worker's grace period after SIGTERM.
     */
    static final Duration KILL_WAIT = Duration.ofSeconds(10);

    private ProcessStop() {}

    /**
     * SIGTERM, then SIGKILL once {@code timeout} passed; when this thread is (or gets) interrupted,
     * SIGKILL at once. Returns when the process is gone (or {@link #KILL_WAIT} after SIGKILL); the
     * interrupt flag is kept.
     */
    static void stop(Process process, Duration timeout) {
        process.destroy();
        try {
            if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        kill(process);
    }

    /**
     * SIGKILL, and waits until the process is gone (at most {@link #KILL_WAIT}) however often this
     * thread is interrupted meanwhile; the interrupt flag is set again afterwards.
     *
     * @return whether it is gone
     */
    static boolean kill(Process process) {
        process.destroyForcibly();
        boolean interrupted = Thread.interrupted();
        long deadline = System.nanoTime() + KILL_WAIT.toNanos();
        try {
            while (process.isAlive()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    process.waitFor(left, TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            return true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
