package io.etcdworkers.rebuild.offline;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.rebuild.engine.EngineInput;
import io.etcdworkers.rebuild.engine.EngineRefused;
import io.etcdworkers.rebuild.engine.EngineSettings;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The base opened by the verifying etcd on a thread of its own while the fold still reads it:
 * started only when the base will most likely be restored as it is (no delta follows it, and its
 * meta says it was compacted at the revision its name gives), so that {@code snapshot restore},
 * the copy into the placement and etcd's start overlap the fold instead of following it.
 *
 * <p>The fold still decides. When it writes a database of its own after all, or fails, {@link
 * #abandon} stops whatever this started and removes the dirs it wrote, before anything else is
 * built there.
 */
final class EarlyOpen {
    private static final Logger LOG = LoggerFactory.getLogger(EarlyOpen.class);

    private final EngineInput in;
    private final Thread thread;
    private volatile VerifyingEtcd opened;
    private volatile Throwable failure;
    private boolean taken;

    private EarlyOpen(EngineInput in, EngineSettings settings) {
        this.in = in;
        this.thread = new Thread(
                () -> {
                    try {
                        opened = VerifyingEtcd.open(in, settings, in.baseFile(), false);
                    } catch (EngineRefused | RuntimeException | Error e) {
                        failure = e;
                    }
                },
                "open-base-early");
        thread.setDaemon(true);
    }

    /** Starts opening {@link EngineInput#baseFile()} as the verifying etcd's database. */
    static EarlyOpen start(EngineInput in, EngineSettings settings) {
        EarlyOpen open = new EarlyOpen(in, settings);
        LOG.info(
                "offline engine: the base is compacted at its revision and no delta follows; etcd restores and "
                        + "opens it while the fold reads it base={}",
                in.selection().base().key());
        open.thread.start();
        return open;
    }

    /** Whether the opening ended, etcd up or failed (nothing handed over yet). */
    boolean finished() {
        return !thread.isAlive();
    }

    /**
     * Waits for etcd to be open on the base and hands it over; its failures are the ones opening
     * it after the fold would have had. Interrupted, it {@linkplain #abandon abandons} first.
     */
    VerifyingEtcd get() throws EngineRefused, InterruptedException {
        try {
            thread.join();
        } catch (InterruptedException e) {
            abandon();
            throw e;
        }
        taken = true;
        Throwable failed = failure;
        if (failed instanceof EngineRefused refused) {
            throw refused;
        }
        if (failed instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failed instanceof Error error) {
            throw error;
        }
        return opened;
    }

    /**
     * Stops the opening (a running {@code snapshot restore} or etcd start is interrupted, which
     * ends its process), stops etcd if it started, and removes the data dir, WAL dir and placement
     * it wrote. Waits for all of it, so nothing writes there afterwards. Nothing once {@link #get}
     * handed etcd over.
     */
    void abandon() {
        if (taken) {
            return;
        }
        taken = true;
        thread.interrupt();
        boolean interrupted = Waits.joinUninterruptibly(thread);
        VerifyingEtcd running = opened;
        if (running != null) {
            running.close();
        }
        try {
            in.clearBuiltDirs();
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot remove the base's early restore under " + in.dataDir() + ": " + e.getMessage(),
                    e);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        Throwable failed = failure;
        LOG.info(
                "offline engine: the base's early restore was set aside dataDir={}{}",
                in.dataDir(),
                failed == null ? "" : " (it had failed: " + failed.getMessage() + ")");
    }
}
