package io.etcdworkers.etcd;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.files.DiskFull;
import io.etcdworkers.files.FileTree;
import io.etcdworkers.files.OwnerOnly;
import io.etcdworkers.files.ScratchDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restores a full snapshot file into a new data dir with etcd's own tool: {@code etcdutl
 * snapshot restore} (3.5+) or {@code ETCDCTL_API=3 etcdctl snapshot restore} (3.4).
 *
 * <p>Contract of {@link #restore}:
 * <ul>
 *   <li>the snapshot is a decompressed bbolt file, with or without the 32-byte SHA-256 trailer
 *       (etcd's test: {@code size % 512 == 32}); without it and without {@code skipHashCheck}
 *       it fails with {@link ErrorCode#HASH_MISMATCH} before running anything;</li>
 *   <li>the data dir (and WAL dir) must be absent or empty, else {@link ErrorCode#TARGET_NOT_EMPTY};</li>
 *   <li>a hash mismatch found by the tool is {@link ErrorCode#HASH_MISMATCH}; any other failure
 *       is {@link ErrorCode#ETCD_FAILURE} with the tool's last output lines;</li>
 *   <li>on failure the data dir (and WAL dir) are put back as found: nothing half-written stays.</li>
 * </ul>
 * The tool runs with an empty environment (plus {@code ETCDCTL_API=3}) so that stray
 * {@code ETCDCTL_*} variables of the worker's pod cannot change what it does, and under the
 * {@link OrphanGuard}: a worker killed by SIGKILL takes the tool with it, so it cannot go on
 * writing into a {@code .part} that the next run removes and rebuilds.
 */
public final class SnapshotRestorer {
    /** Generous: etcd restores ~100 MB/s here, and an 8 GiB database is etcd's recommended maximum. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(15);

    static final int HASH_TRAILER_BYTES = 32;
    private static final int OUTPUT_LINES = 8;
    // etcd's message for a trailer that does not match, the same in etcdctl 3.4 and etcdutl 3.5+.
    // The tool exits 1 for every failure, so its text is the only signal there is.
    private static final String TOOL_HASH_MISMATCH = "expected sha256";
    private static final Logger log = LoggerFactory.getLogger(SnapshotRestorer.class);

    /**
     * What to restore and where.
     *
     * @param snapshot the decompressed full snapshot file
     * @param member the identity the restored membership gets; start the etcd with the same
     * @param dataDir the data dir to create
     * @param walDir a separate WAL dir (e.g. on tmpfs), or empty for {@code dataDir/member/wal}
     * @param skipHashCheck pass {@code --skip-hash-check}: only when told to
     */
    public record Request(
            Path snapshot, EtcdMember member, Path dataDir, Optional<Path> walDir, boolean skipHashCheck) {
        public Request {
            Objects.requireNonNull(snapshot, "snapshot");
            Objects.requireNonNull(member, "member");
            Objects.requireNonNull(dataDir, "dataDir");
            Objects.requireNonNull(walDir, "walDir");
        }
    }

    private final EtcdBinaries binaries;
    private final Path scratchDir;
    private final Duration timeout;

    /**
     * @param scratchDir where the tool's output is written while it runs (deleted after)
     * @param timeout how long the tool may run before it is killed
     */
    public SnapshotRestorer(EtcdBinaries binaries, Path scratchDir, Duration timeout) {
        this.binaries = Objects.requireNonNull(binaries, "binaries");
        this.scratchDir = Objects.requireNonNull(scratchDir, "scratchDir");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /** Runs the restore; see the class contract. */
    public void restore(Request request) {
        long size = checkSnapshot(request);
        boolean dataDirWasEmpty = prepareTarget(request.dataDir(), "data dir");
        boolean walDirWasEmpty =
                request.walDir().isPresent() && prepareTarget(request.walDir().get(), "WAL dir");
        long started = System.nanoTime();
        log.atInfo()
                .setMessage("snapshot restore starting")
                .addKeyValue("snapshot", request.snapshot())
                .addKeyValue("bytes", size)
                .addKeyValue("dataDir", request.dataDir())
                .addKeyValue("tool", binaries.snapshotRestoreTool())
                .log();
        try {
            run(request);
        } catch (RuntimeException | Error e) {
            undo(request.dataDir(), dataDirWasEmpty, e);
            request.walDir().ifPresent(w -> {
                undo(w, walDirWasEmpty, e);
                // the tool writes the WAL in <wal-dir>.tmp first; a failed one (a full disk) leaves it
                undo(ScratchDir.walTmpOf(w), false, e);
            });
            throw e;
        }
        log.atInfo()
                .setMessage("snapshot restore done")
                .addKeyValue("snapshot", request.snapshot())
                .addKeyValue("dataDir", request.dataDir())
                .addKeyValue("ms", (System.nanoTime() - started) / 1_000_000)
                .log();
    }

    /** The tool's command line: one pure function of the binaries and the request. */
    static List<String> argv(EtcdBinaries binaries, Request r) {
        List<String> argv = new ArrayList<>(List.of(
                binaries.snapshotRestoreTool().toString(),
                "snapshot",
                "restore",
                r.snapshot().toString(),
                "--name=" + r.member().name(),
                "--initial-cluster=" + r.member().initialCluster(),
                "--initial-cluster-token=" + r.member().clusterToken(),
                "--initial-advertise-peer-urls=" + r.member().peerUrl(),
                "--data-dir=" + r.dataDir()));
        r.walDir().ifPresent(w -> argv.add("--wal-dir=" + w));
        if (r.skipHashCheck()) {
            argv.add("--skip-hash-check=true");
        }
        return argv;
    }

    /** The tool's whole environment: 3.4's etcdctl needs the v3 API chosen explicitly. */
    static Map<String, String> environment(EtcdBinaries binaries) {
        return binaries.restoresWithEtcdutl() ? Map.of() : Map.of("ETCDCTL_API", "3");
    }

    /** Whether a file of {@code size} bytes carries the SHA-256 trailer the restore checks. */
    public static boolean hasHashTrailer(long size) {
        return size % 512 == HASH_TRAILER_BYTES;
    }

    private long checkSnapshot(Request r) {
        long size;
        try {
            size = Files.size(r.snapshot());
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot read snapshot file " + r.snapshot() + ": " + e, e);
        }
        if (!hasHashTrailer(size) && !r.skipHashCheck()) {
            throw new WorkerException(
                    ErrorCode.HASH_MISMATCH,
                    "snapshot " + r.snapshot() + " (" + size
                            + " bytes) has no SHA-256 trailer (size % 512 != 32), so its integrity cannot be checked;"
                            + " restore it only with --skip-hash-check");
        }
        return size;
    }

    /** Makes {@code dir} absent (the tools refuse an existing dir); returns whether it existed empty. */
    private static boolean prepareTarget(Path dir, String what) {
        try {
            if (!Files.exists(dir)) {
                return false;
            }
            if (!FileTree.isEmptyDirectory(dir)) {
                throw new WorkerException(
                        ErrorCode.TARGET_NOT_EMPTY,
                        "cannot restore a snapshot into " + what + " " + dir
                                + ": it exists and is not an empty directory");
            }
            Files.delete(dir);
            return true;
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot prepare " + what + " " + dir + ": " + e, e);
        }
    }

    private static void undo(Path dir, boolean recreateEmpty, Throwable failure) {
        try {
            FileTree.delete(dir);
            if (recreateEmpty) {
                OwnerOnly.createDirectories(dir);
            }
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    private void run(Request r) {
        Path output = null;
        Process p = null;
        try {
            OwnerOnly.createDirectories(scratchDir);
            output = Files.createTempFile(scratchDir, "snapshot-restore-", ".log");
            // stdin stays the default pipe: this JVM holds its write end, the guard watches it
            ProcessBuilder pb = new ProcessBuilder(OrphanGuard.wrap(argv(binaries, r)))
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile());
            pb.environment().clear();
            pb.environment().putAll(environment(binaries));
            p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                ProcessStop.kill(p);
                throw new WorkerException(
                        ErrorCode.ETCD_FAILURE,
                        "snapshot restore of " + r.snapshot() + " did not finish in " + timeout + ": "
                                + LogTail.excerpt(output, OUTPUT_LINES));
            }
            if (p.exitValue() != 0) {
                String text = Files.readString(output);
                String tail = LogTail.excerpt(text, OUTPUT_LINES);
                if (DiskFull.says(text)) {
                    throw new WorkerException(
                            ErrorCode.LOCAL_IO,
                            "snapshot restore of " + r.snapshot() + " into "
                                    + r.dataDir()
                                    + r.walDir().map(w -> " (WAL " + w + ")").orElse("")
                                    + " failed: " + DiskFull.describe(text, r.dataDir(), r.walDir()) + "; "
                                    + binaries.snapshotRestoreTool().getFileName() + " said: " + tail);
                }
                ErrorCode code = text.contains(TOOL_HASH_MISMATCH) ? ErrorCode.HASH_MISMATCH : ErrorCode.ETCD_FAILURE;
                throw new WorkerException(
                        code,
                        "snapshot restore of " + r.snapshot() + " failed (exit " + p.exitValue() + " from "
                                + binaries.snapshotRestoreTool().getFileName() + "): " + tail);
            }
            if (!Files.isDirectory(r.dataDir().resolve("member"))) {
                throw new WorkerException(
                        ErrorCode.ETCD_FAILURE,
                        "snapshot restore of " + r.snapshot()
                                + " exited 0 but wrote no " + r.dataDir().resolve("member") + ": "
                                + LogTail.excerpt(output, OUTPUT_LINES));
            }
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO, "cannot run snapshot restore of " + r.snapshot() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // The tool must be gone before the dir it writes is removed (undo, then the caller's
            // scratch cleanup): killed but still running, it would go on writing there.
            ProcessStop.kill(p);
            throw new WorkerException(
                    ErrorCode.INTERRUPTED, "interrupted during snapshot restore of " + r.snapshot(), e);
        } finally {
            if (p != null) {
                closeGuardPipe(p);
            }
            if (output != null) {
                try {
                    Files.deleteIfExists(output);
                } catch (IOException ignored) {
                    // A leftover log in the scratch dir is harmless and the scratch dir is removed anyway.
                }
            }
        }
    }

    /** Lets the guard's watcher exit: the tool is gone (or being killed), nothing left to guard. */
    private static void closeGuardPipe(Process p) {
        try {
            p.getOutputStream().close();
        } catch (IOException ignored) {
            // the watcher also exits on its own once the tool is gone
        }
    }
}
