package io.etcdworkers.workercli;

import io.etcdworkers.contract.ErrorCode;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;

/**
 * Turns SIGTERM (a Job deleted, a node drained) and SIGINT into an orderly stop: the worker
 * thread is interrupted, it stops etcd, aborts uploads and removes its partial files on the way
 * out, and the process exits with {@link ErrorCode#INTERRUPTED}. The JVM waits at most
 * {@link #GRACE} for that (Kubernetes gives 30 s by default before SIGKILL).
 */
public final class GracefulShutdown {
    /** How long the signal handler waits for the worker to clean up. */
    public static final Duration GRACE = Duration.ofSeconds(25);

    private static final AtomicBoolean REQUESTED = new AtomicBoolean();

    private GracefulShutdown() {}

    /** Whether a stop signal arrived: any failure after it is reported as an interruption. */
    public static boolean requested() {
        return REQUESTED.get();
    }

    /** Runs {@code work} on this thread and returns its exit code, handling stop signals as described. */
    public static int run(IntSupplier work) {
        Thread worker = Thread.currentThread();
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    REQUESTED.set(true);
                    worker.interrupt();
                    try {
                        finished.await(GRACE.toMillis(), TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "graceful-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        int code = work.getAsInt();
        // Halt before releasing the hook: once the hook returns, the JVM would finish its signal
        // exit (143) and race with our code. System.exit would block while the hook runs.
        if (REQUESTED.get()) {
            Runtime.getRuntime().halt(code);
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            Runtime.getRuntime().halt(ErrorCode.INTERRUPTED.exitCode());
        }
        finished.countDown();
        return code;
    }
}
