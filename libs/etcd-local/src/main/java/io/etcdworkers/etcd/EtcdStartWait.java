package io.etcdworkers.etcd;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.files.DiskFull;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waiting for a started etcd to answer: until its {@code /health} says healthy, it exits (with the
 * last lines it logged, a full disk told apart), or the start timeout passes.
 */
final class EtcdStartWait {
    static final int ERROR_LINES = 12;
    private static final Duration POLL = Duration.ofMillis(50);
    private static final int HEALTH_TIMEOUT_MS = 1000;
    /**
     * How often a start that has not answered yet is reported: etcd reads its whole database and
     * builds its key index before it serves (27-39 s at 3,000,000 keys), and a log that says
     * nothing for that long looks like a hang.
     */
    static final Duration STILL_STARTING_EVERY = Duration.ofSeconds(10);

    private static final Logger log = LoggerFactory.getLogger(EtcdStartWait.class);

    private EtcdStartWait() {}

    static void untilHealthy(
            Process process,
            URI clientEndpoint,
            EmbeddedEtcdConfig config,
            Path logFile,
            long startedNanos,
            BooleanSupplier stoppedAtExit) {
        long deadline = startedNanos + config.startTimeout().toNanos();
        URI health = clientEndpoint.resolve("/health");
        long reported = 0;
        while (true) {
            if (!process.isAlive()) {
                if (stoppedAtExit.getAsBoolean()) {
                    // the JVM's exit (a stop signal) stopped it: not a failure of etcd on this data dir,
                    // which an engine would take as a reason to try the other one
                    throw new WorkerException(
                            ErrorCode.INTERRUPTED,
                            "stopped by a signal while etcd was starting on " + config.dataDir() + " (etcd stopped)");
                }
                String tail = LogTail.excerpt(logFile, ERROR_LINES);
                if (DiskFull.says(tail)) {
                    throw new WorkerException(
                            ErrorCode.LOCAL_IO,
                            "etcd exited with code " + process.exitValue()
                                    + " while starting on " + config.dataDir() + ": "
                                    + DiskFull.describe(tail, config.dataDir(), config.walDir())
                                    + "; etcd said: " + tail);
                }
                throw new WorkerException(
                        ErrorCode.ETCD_FAILURE,
                        "etcd exited with code " + process.exitValue() + " while starting on " + config.dataDir() + ": "
                                + tail);
            }
            if (isHealthy(health)) {
                return;
            }
            long now = System.nanoTime();
            if (now - deadline > 0) {
                throw new WorkerException(
                        ErrorCode.ETCD_FAILURE,
                        "etcd on " + config.dataDir() + " not healthy within " + config.startTimeout() + ": "
                                + LogTail.excerpt(logFile, ERROR_LINES));
            }
            long due = stillStartingReports(now - startedNanos);
            if (due > reported) {
                reported = due;
                log.info(
                        "etcd is still starting (it reads its database and builds its key index before it answers) "
                                + "pid={} dataDir={} databaseBytes={} elapsedSeconds={} timeoutSeconds={}",
                        process.pid(),
                        config.dataDir(),
                        EtcdDataDir.databaseBytes(config.dataDir()),
                        (now - startedNanos) / 1_000_000_000L,
                        config.startTimeout().toSeconds());
            }
            try {
                // Doubles as the poll pause and returns at once if etcd exits.
                process.waitFor(POLL.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new WorkerException(ErrorCode.INTERRUPTED, "interrupted while etcd was starting", e);
            }
        }
    }

    /** How many {@link #STILL_STARTING_EVERY} reports a start that has waited {@code elapsedNanos} is due. */
    static long stillStartingReports(long elapsedNanos) {
        return Math.max(0, elapsedNanos) / STILL_STARTING_EVERY.toNanos();
    }

    private static boolean isHealthy(URI health) {
        HttpURLConnection c = null;
        try {
            c = (HttpURLConnection) health.toURL().openConnection();
            c.setConnectTimeout(HEALTH_TIMEOUT_MS);
            c.setReadTimeout(HEALTH_TIMEOUT_MS);
            if (c.getResponseCode() != 200) {
                return false;
            }
            try (InputStream in = c.getInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8).contains("\"health\":\"true\"");
            }
        } catch (IOException notYet) {
            // Connection refused until etcd listens: that is what we are waiting for.
            return false;
        } finally {
            if (c != null) {
                c.disconnect();
            }
        }
    }
}
