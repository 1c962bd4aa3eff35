package io.etcdworkers.workercli;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.format.RestorePoint;
import io.etcdworkers.rebuild.RebuildConfig;
import io.etcdworkers.rebuild.engine.Engine;
import io.etcdworkers.rebuild.engine.EngineSettings;
import io.etcdworkers.rebuild.engine.KeyPrefix;
import io.etcdworkers.rebuild.replay.ReplayConfig;
import io.etcdworkers.rebuild.verify.VerifyScope;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Flags of the rebuild (scratch etcd, engine, fetching), shared by the restore and compaction commands. */
public final class RebuildOptions {

    @Option(
            names = "--etcd-bin-dir",
            paramLabel = "DIR",
            description = "Directory with etcd, etcdctl and (3.5+) etcdutl. Default: found on PATH.")
    Path binDir;

    @Option(
            names = WorkerFlags.SCRATCH_DIR,
            paramLabel = "DIR",
            description = "Where deltas are downloaded and the scratch etcd logs (each run in a dir of its own, 0700). "
                    + "Default: etcd-workers-<uid> in the system temp dir (created 0700; refused if it is a link "
                    + "or another user's).")
    Path scratchDir;

    @Option(
            names = "--scratch-wal-dir",
            paramLabel = "DIR",
            description =
                    "Keep the scratch etcd's WAL here during the replay (e.g. a tmpfs: on etcd 3.4 this avoids "
                            + "one disk fsync per revision); removed after the verification: the placed data dir gets its own WAL from a fresh snapshot restore.")
    Path scratchWalDir;

    @Option(
            names = WorkerFlags.EMBEDDED_ETCD_QUOTA_BYTES,
            paramLabel = "BYTES",
            converter = ByteSizeConverter.class,
            description = "Space quota of the scratch etcd (--quota-backend-bytes). Default: ${DEFAULT-VALUE}.")
    long quotaBytes = EmbeddedEtcdConfig.DEFAULT_QUOTA_BACKEND_BYTES;

    @Option(
            names = WorkerFlags.ENGINE,
            paramLabel = "replay|offline|auto",
            description = "How deltas become the database: replay (every revision into a scratch etcd), offline "
                    + "(fold them without etcd and write the compacted database directly; refuse if the base's "
                    + "layout is not understood), auto (offline, falling back to replay). The result is always "
                    + "checked by a real etcd. Default: auto.")
    Engine engine = Engine.AUTO;

    @Option(
            names = "--verify-read",
            paramLabel = "sample|all",
            description = "How much of the keyspace the verifying etcd serves back (offline engine). sample: etcd's "
                    + "HashKV must equal the hash of the database file, its key count the fold's, and a sample of "
                    + "its ranges the fold's sums, while every key is checked once in the file itself; all: etcd "
                    + "also serves every key, digested (about 20 us a key; the replay always reads this way). "
                    + "Default: sample.")
    VerifyScope verifyScope = VerifyScope.SAMPLE;

    @Option(
            names = "--fold-memory",
            paramLabel = "BYTES|auto",
            description = "Heap the offline fold may give its live keys (about 150 bytes plus the key each) before "
                    + "it moves them and every later change to key partitions in the scratch dir, folds those apart "
                    + "and merges them: the heap then no longer grows with the keyspace, at the cost of scratch disk "
                    + "(measured as fast at 1,000,000 keys, faster at 3,000,000). At least 8Mi; auto: two thirds of "
                    + "the JVM's maximum heap beyond 64Mi. Default: auto.")
    String foldMemory = "auto";

    @Option(
            names = WorkerFlags.MAX_FETCHERS,
            paramLabel = "N",
            description = "Deltas downloaded and verified in parallel ahead of the replay. Default: ${DEFAULT-VALUE}.")
    int maxFetchers = EngineSettings.DEFAULT_MAX_FETCHERS;

    @Option(
            names = "--replay-lease-ttl",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "TTL given to a lease that deltas use but the full snapshot lacks (granted with the same id "
                    + "so keys keep it). Default: 1h.")
    Duration leaseTtl = Duration.ofSeconds(EngineSettings.DEFAULT_LEASE_TTL_SECONDS);

    @Option(
            names = "--etcd-call-timeout",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "Deadline of one call to the scratch etcd (a hung etcd fails the run). Default: 2m.")
    Duration callTimeout = EngineSettings.DEFAULT_CALL_TIMEOUT;

    @Option(
            names = WorkerFlags.ETCD_DEFRAG_TIMEOUT,
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "Deadline of one compaction or defragmentation. Default: 10m.")
    Duration defragTimeout = ReplayConfig.DEFAULT_DEFRAG_TIMEOUT;

    @Option(
            names = "--progress-interval",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "How often replay progress is logged. Default: 5s.")
    Duration progressInterval = EngineSettings.DEFAULT_PROGRESS_EVERY;

    private long foldMemoryBytes() {
        if (foldMemory.strip().equalsIgnoreCase("auto")) {
            return EngineSettings.AUTO;
        }
        long bytes;
        try {
            bytes = ByteSizeConverter.parse(foldMemory);
        } catch (picocli.CommandLine.TypeConversionException e) {
            throw new IllegalArgumentException("--fold-memory: " + e.getMessage(), e);
        }
        if (bytes < EngineSettings.MIN_FOLD_MEMORY) {
            // 0 included: it is not a way to say auto
            throw new IllegalArgumentException("--fold-memory must be at least 8Mi (or auto): " + foldMemory);
        }
        return bytes;
    }

    /** Whether {@code --scratch-dir} was given (on the command line or by its environment twin). */
    public boolean scratchDirGiven() {
        return scratchDir != null;
    }

    /**
     * Makes {@code dir} the scratch dir unless {@code --scratch-dir} was given: for another program's
     * name of it (etcdbrctl's {@code --data-dir} in a compaction).
     */
    public void scratchDirIfNotGiven(Path dir) {
        if (scratchDir == null) {
            scratchDir = dir;
        }
    }

    /** {@code --scratch-dir} (relative to the working dir), else the program's own dir under the temp dir. */
    public Path scratchDirOrDefault(WorkerContext context) {
        return scratchDir != null
                ? context.workingDir().resolve(scratchDir)
                : DefaultScratchDir.under(Path.of(System.getProperty("java.io.tmpdir")));
    }

    /**
     * The rebuild these flags describe.
     *
     * @param member the member the scratch etcd runs as
     * @param skipHashCheck accept a base without a valid SHA-256 trailer
     * @throws io.etcdworkers.contract.WorkerException {@code USAGE} for values out of range, or a default
     *     scratch dir that is a link or another user's
     */
    public RebuildConfig rebuildConfig(
            WorkerContext context, String prefix, EtcdMember member, boolean skipHashCheck, DefragOptions defrag) {
        try {
            Path work = context.workingDir();
            EngineSettings settings = new EngineSettings(
                    maxFetchers,
                    EngineSettings.DEFAULT_DECODE_BUDGET_BYTES,
                    Math.max(1, leaseTtl.toSeconds()),
                    progressInterval,
                    quotaBytes,
                    callTimeout,
                    verifyScope,
                    foldMemoryBytes());
            return new RebuildConfig(
                    prefix,
                    member,
                    skipHashCheck,
                    scratchDirOrDefault(context),
                    Optional.ofNullable(scratchWalDir).map(work::resolve),
                    Optional.ofNullable(binDir).map(work::resolve),
                    context.env().getOrDefault("PATH", ""),
                    engine,
                    settings,
                    new ReplayConfig(defrag.toConfig(), defragTimeout),
                    RestorePoint.LATEST,
                    KeyPrefix.ALL);
        } catch (IllegalArgumentException e) {
            throw new WorkerException(ErrorCode.USAGE, e.getMessage(), e);
        }
    }
}
