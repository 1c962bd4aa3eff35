package io.etcdworkers.etcd;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.files.FileTree;
import io.etcdworkers.files.OwnerOnly;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scratch etcd: a child process serving an existing data dir on loopback only.
 *
 * <p>Contract:
 * <ul>
 *   <li>{@link #start} returns once {@code /health} on the client URL says healthy, or throws
 *       {@link ErrorCode#ETCD_FAILURE} with the last lines etcd logged (it exited, or the start
 *       timeout passed), or {@link ErrorCode#INTERRUPTED} when a stop signal ended the start
 *       (etcd is gone by then). A port taken between choosing and binding is retried with new ports.</li>
 *   <li>etcd's output goes to {@link #logFile()} in a temp dir under the scratch dir, never to
 *       the worker's stdout (which carries the result JSON).</li>
 *   <li>{@link #stop()} ends etcd cleanly (SIGTERM, then SIGKILL after the stop timeout; at once
 *       when interrupted) and returns once it is gone, so the data dir can be moved or removed;
 *       {@link #close()} also deletes the log dir. Neither ever deletes the data dir or WAL dir:
 *       the caller owns them.</li>
 *   <li>No orphan: a shutdown hook stops etcd on a normal JVM exit, and {@link OrphanGuard}
 *       kills it when the JVM dies without running hooks.</li>
 * </ul>
 */
public final class EmbeddedEtcd implements AutoCloseable {
    static final int BIND_ATTEMPTS = 3;
    static final int HEARTBEAT_MS = 10;
    /** etcd requires at least five heartbeats. */
    static final int ELECTION_TIMEOUT_MS = 10 * HEARTBEAT_MS;
    // The errno text of EADDRINUSE in Go's net errors: etcd exits 1 for every startup failure,
    // so its log is the only way to tell a lost port race (retry) from a real failure.
    private static final String ADDRESS_IN_USE = "address already in use";
    private static final Logger log = LoggerFactory.getLogger(EmbeddedEtcd.class);
    private static final String LOG_FILE = "etcd.log";

    private final EmbeddedEtcdConfig config;
    private final Path logDir;
    private final Path logFile;
    private final Process process;
    private final URI clientEndpoint;
    private final Thread shutdownHook;
    /** Set by the shutdown hook: etcd ended because the JVM is exiting (a stop signal), not on its own. */
    private final AtomicBoolean stoppedAtExit;

    private EmbeddedEtcd(
            EmbeddedEtcdConfig config,
            Path logDir,
            Process process,
            URI clientEndpoint,
            Thread shutdownHook,
            AtomicBoolean stoppedAtExit) {
        this.config = config;
        this.logDir = logDir;
        this.logFile = logDir.resolve(LOG_FILE);
        this.process = process;
        this.clientEndpoint = clientEndpoint;
        this.shutdownHook = shutdownHook;
        this.stoppedAtExit = stoppedAtExit;
    }

    /** Starts etcd on {@code config.dataDir()} and waits until it is healthy; see the class contract. */
    public static EmbeddedEtcd start(EmbeddedEtcdConfig config) {
        if (!Files.isDirectory(config.dataDir().resolve("member"))) {
            // An empty dir would silently become a brand-new empty cluster.
            throw new WorkerException(
                    ErrorCode.ETCD_FAILURE,
                    "data dir " + config.dataDir()
                            + " holds no etcd member (no member/ dir): restore a snapshot into it first");
        }
        Path logDir;
        try {
            OwnerOnly.createDirectories(config.scratchDir());
            logDir = Files.createTempDirectory(config.scratchDir(), "etcd-");
            // created here, 0600: a file the process launch creates for its output gets the umask's mode
            Files.createFile(logDir.resolve(LOG_FILE), OwnerOnly.FILE);
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO, "cannot create a log dir under " + config.scratchDir() + ": " + e, e);
        }
        try {
            return startWithRetries(config, logDir);
        } catch (RuntimeException | Error e) {
            deleteQuietly(logDir, e);
            throw e;
        }
    }

    private static EmbeddedEtcd startWithRetries(EmbeddedEtcdConfig config, Path logDir) {
        // The member's own port first: listening where the membership says is the normal case.
        String host = config.member().peerUrl().getHost();
        boolean loopback = LoopbackPorts.HOST.equals(host) || "localhost".equals(host);
        int peerPort = loopback ? config.member().peerPort() : LoopbackPorts.free();
        for (int attempt = 1; ; attempt++) {
            int clientPort = LoopbackPorts.free();
            EmbeddedEtcd etcd = launch(config, logDir, clientPort, peerPort);
            long started = System.nanoTime();
            try {
                EtcdStartWait.untilHealthy(
                        etcd.process, etcd.clientEndpoint, config, etcd.logFile, started, etcd.stoppedAtExit::get);
                log.info(
                        "etcd started endpoint={} pid={} version={} dataDir={} ms={}",
                        etcd.clientEndpoint,
                        etcd.pid(),
                        etcd.version(),
                        config.dataDir(),
                        (System.nanoTime() - started) / 1_000_000);
                return etcd;
            } catch (WorkerException e) {
                etcd.stop();
                etcd.unregisterHook();
                boolean portRace = e.code() == ErrorCode.ETCD_FAILURE
                        && LogTail.excerpt(etcd.logFile, 50).contains(ADDRESS_IN_USE);
                if (!portRace || attempt >= BIND_ATTEMPTS) {
                    throw e;
                }
                // Only the listen port changes: the advertised peer URL must stay the member's.
                log.warn("etcd could not bind its ports, retrying attempt={} cause={}", attempt, e.getMessage());
                peerPort = LoopbackPorts.free();
            }
        }
    }

    private static EmbeddedEtcd launch(EmbeddedEtcdConfig config, Path logDir, int clientPort, int peerPort) {
        List<String> argv = OrphanGuard.wrap(etcdArgv(config, clientPort, peerPort));
        ProcessBuilder pb = new ProcessBuilder(argv)
                .redirectErrorStream(true)
                .redirectOutput(logDir.resolve(LOG_FILE).toFile())
                .directory(logDir.toFile());
        // etcd reads ETCD_* variables for every flag not given: the pod's environment must not
        // switch on metrics listeners or change limits behind the argv's back.
        pb.environment().clear();
        if (config.goGc() > 0) {
            pb.environment().put("GOGC", Integer.toString(config.goGc()));
        }
        Process process;
        log.info("etcd starting dataDir={} clientPort={} peerPort={}", config.dataDir(), clientPort, peerPort);
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.ETCD_FAILURE, "cannot start " + config.binaries().etcd() + ": " + e, e);
        }
        AtomicBoolean stoppedAtExit = new AtomicBoolean();
        Thread hook = new Thread(
                () -> {
                    stoppedAtExit.set(true);
                    ProcessStop.stop(process, config.stopTimeout());
                },
                "etcd-shutdown-" + process.pid());
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The JVM began to exit (a stop signal) while etcd was being spawned: no hook will stop
            // it, and the caller removes its data dir next. Left running, an etcd that has not
            // opened that dir yet recreates it as a new member (a 64 MB WAL) after the removal.
            ProcessStop.kill(process);
            closeGuardPipe(process);
            throw new WorkerException(
                    ErrorCode.INTERRUPTED,
                    "stopped by a signal while etcd was starting on " + config.dataDir() + " (etcd stopped)",
                    shuttingDown);
        }
        return new EmbeddedEtcd(config, logDir, process, LoopbackPorts.url(clientPort), hook, stoppedAtExit);
    }

    /** etcd's command line (without the {@link OrphanGuard} wrapper): one pure function of its inputs. */
    static List<String> etcdArgv(EmbeddedEtcdConfig c, int clientPort, int peerListenPort) {
        String client = LoopbackPorts.url(clientPort).toString();
        List<String> argv = new ArrayList<>(
                List.of(c.binaries().etcd().toString(), "--name=" + c.member().name(), "--data-dir=" + c.dataDir()));
        c.walDir().ifPresent(w -> argv.add("--wal-dir=" + w));
        argv.addAll(List.of(
                "--listen-client-urls=" + client,
                "--advertise-client-urls=" + client,
                "--listen-peer-urls=" + LoopbackPorts.url(peerListenPort),
                "--initial-advertise-peer-urls=" + c.member().peerUrl(),
                "--initial-cluster=" + c.member().initialCluster(),
                "--initial-cluster-token=" + c.member().clusterToken(),
                "--auto-compaction-retention=0",
                "--quota-backend-bytes=" + c.quotaBackendBytes(),
                "--max-request-bytes=" + c.maxRequestBytes(),
                "--max-txn-ops=" + c.maxTxnOps(),
                "--snapshot-count=" + c.snapshotCount(),
                // 3.4 defaults to capnslog, which ignores --log-level; zap exists in 3.4 to 3.6.
                "--logger=zap",
                "--log-level=warn",
                "--log-outputs=stderr",
                "--enable-pprof=false"));
        if (c.fastElection()) {
            // One member on loopback: nothing to be patient about. A restarted single member
            // campaigns after 1 to 10 ticks; at 10 ms a tick it is the leader within 10-100 ms
            // (measured on the 180 MB benchmark base: healthy after 0.25-0.33 s instead of
            // 0.25-0.87 s on 3.5, 0.40-0.54 s instead of 0.44-0.65 s on 3.4).
            argv.add("--heartbeat-interval=" + HEARTBEAT_MS);
            argv.add("--election-timeout=" + ELECTION_TIMEOUT_MS);
        }
        if (c.forceNewCluster()) {
            argv.add("--force-new-cluster=true");
        }
        if (c.binaries().version().supportsUnsafeNoFsync()) {
            // The scratch copy is rebuilt from the bucket if anything dies; the caller syncs
            // the final data dir before placing it.
            argv.add("--unsafe-no-fsync=true");
        }
        return argv;
    }

    /** {@code http://127.0.0.1:PORT}, the form jetcd's endpoints need. */
    public URI clientEndpoint() {
        return clientEndpoint;
    }

    /** etcd's own pid (the guard {@code exec}s into etcd, so the child is etcd). */
    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path dataDir() {
        return config.dataDir();
    }

    /** Its WAL dir when it is not under the data dir ({@code --scratch-wal-dir}). */
    public Optional<Path> walDir() {
        return config.walDir();
    }

    public EtcdVersion version() {
        return config.binaries().version();
    }

    /** etcd's combined output; deleted by {@link #close()}. */
    public Path logFile() {
        return logFile;
    }

    /**
     * Stops etcd: SIGTERM, wait up to the stop timeout, then SIGKILL (interrupted: SIGKILL at
     * once, the interrupt kept). Afterwards nothing holds the data dir. Idempotent; the data dir
     * is left in place.
     */
    public void stop() {
        if (process.isAlive()) {
            long started = System.nanoTime();
            ProcessStop.stop(process, config.stopTimeout());
            log.info(
                    "etcd stopped pid={} dataDir={} ms={}",
                    pid(),
                    config.dataDir(),
                    (System.nanoTime() - started) / 1_000_000);
        }
        closeGuardPipe(process);
    }

    /** EOF for the guard's watcher: with etcd gone it exits without signalling anyone. */
    private static void closeGuardPipe(Process process) {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            log.debug("closing the guard pipe failed pid={}", process.pid(), e);
        }
    }

    /** {@link #stop()}, then deletes the log dir; never the data dir. */
    @Override
    public void close() {
        stop();
        unregisterHook();
        deleteQuietly(logDir, null);
    }

    private void unregisterHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is exiting and the hook is running or about to: it stops etcd itself.
        }
    }

    private static void deleteQuietly(Path dir, Throwable failure) {
        try {
            FileTree.delete(dir);
        } catch (IOException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            } else {
                log.warn("cannot delete etcd log dir {}: {}", dir, e.toString());
            }
        }
    }
}
