package io.etcdworkers.restore.restore;

import io.etcdworkers.restore.error.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.restore.etcd.EtcdBinaries;
import io.etcdworkers.restore.etcd.SnapshotRestorer;
import io.etcdworkers.restore.files.FileTree;
import io.etcdworkers.restore.files.ScratchDir;
import io.etcdworkers.restore.replay.DeltaReplayer;
import io.etcdworkers.restore.replay.ReplayStats;
import io.etcdworkers.restore.replay.ScratchEtcd;
import io.etcdworkers.restore.snapshot.FullSnapshotReader;
import io.etcdworkers.restore.snapshot.SnapshotCatalog;
import io.etcdworkers.restore.snapshot.SnapshotSelection;
import io.etcdworkers.restore.snapshot.SnapshotStreams;
import io.etcdworkers.restore.store.ObjectStore;
import io.etcdworkers.restore.verify.KeyspaceDigest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds an etcd data dir from a bucket: select base and deltas (refusing gaps up front),
 * restore the base with etcd's tools into {@code <data-dir>.part}, replay the deltas into a
 * scratch etcd running on it, verify the revision and digest the keyspace, stop etcd, sync and
 * rename into place. On any failure the target is left as it was.
 *
 * <p>The compaction worker reuses {@link #rebuild} to get a verified running etcd it can
 * snapshot before it is stopped.
 */
public final class RestoreService {
    private static final Logger LOG = LoggerFactory.getLogger(RestoreService.class);

    /** What to do with the rebuilt etcd while it still runs (the compaction worker snapshots it). */
    @FunctionalInterface
    public interface WhileRunning {
        /** Called once the rebuilt etcd is verified, before it is stopped. */
        void accept(ScratchEtcd etcd, RestoreOutcome outcome) throws InterruptedException;

        /**
         * The offline engine wrote its database (trailer included) at {@code database}, not yet
         * verified: the file stays until {@link #accept} returns (the compaction worker starts
         * uploading it here and commits the upload only in {@code accept}, after the
         * verification). Not called when the replay builds the database.
         */
        default void offlineDatabase(Path database, long revision) {}
    }

    /**
     * etcd keeps every raft entry since its last raft snapshot in memory (plus 5,000 for followers
     * to catch up); a replay's entries are whole transactions, so 3.4's default of 100,000 holds
     * hundreds of MB. Measured: 30,000 txns of ~3 KB left 178 MB of etcd heap at 100,000 and 107 MB
     * at 10,000, at the same speed within noise.
     */
    static final long SCRATCH_SNAPSHOT_COUNT = 10_000;

    private final ObjectStore store;
    private final RestoreConfig config;
    private final Clock clock;
    private final Map<String, Duration> phases = new LinkedHashMap<>();

    Map<String, Duration> phases() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(phases));
    }

    public RestoreService(ObjectStore store, RestoreConfig config, Clock clock) {
        this.store = store;
        this.config = config;
        this.clock = clock;
    }

    /** The restore command: rebuild into {@code <data-dir>.part} and place it. */
    public RestoreOutcome restore() throws InterruptedException {
        EtcdBinaries binaries = EtcdBinaries.locate(config.etcdBinDir(), config.path());
        try (TargetDir target = TargetDir.prepare(config.dataDir(), config.force())) {
            RestoreOutcome outcome = rebuild(binaries, plan(), target.part(), (etcd, o) -> { });
            Instant placing = clock.instant();
            target.place();
            phase("place", placing);
            LOG.info("restore done dataDir={} revision={} keys={}", config.dataDir(), outcome.digest().revision(),
                    outcome.digest().keys());
            return outcome.withPhases(config.dataDir(), Collections.unmodifiableMap(new LinkedHashMap<>(phases)));
        }
    }

    /**
     * Builds a verified data dir in {@code dataDir} (which must not exist or be empty), runs
     * {@code whileRunning} against the still running etcd, then stops etcd and copies the WAL back
     * when it was kept elsewhere. Placing is the caller's.
     */
    public RestoreOutcome rebuild(EtcdBinaries binaries, SnapshotSelection selection, Path dataDir,
            WhileRunning whileRunning) throws InterruptedException {
        Instant t;
        ScratchDir scratchDir = createScratch();
        Path scratch = scratchDir.path();
        // a fresh WAL dir per run under --scratch-wal-dir: it must not exist before the restore
        Optional<Path> walDir = config.scratchWalDir().map(d -> d.resolve(scratch.getFileName() + "-wal"));
        try {
            t = clock.instant();
            Path baseFile = scratch.resolve("base.db");
            download(selection, baseFile);
            phase("fetchBase", t);
            String note = "";
            if (config.engine() != Engine.REPLAY) {
                try {
                    return new OfflineRebuild(this, store, config, clock)
                            .rebuild(binaries, selection, baseFile, dataDir, walDir, scratch, whileRunning);
                } catch (OfflineRebuild.Refused e) {
                    if (config.engine() == Engine.OFFLINE) {
                        throw new WorkerException(e.code(), e.getMessage() + " (--engine=replay would replay instead)", e);
                    }
                    note = e.getMessage();
                    LOG.warn("offline engine refused, falling back to the replay: {}", note);
                    FileTree.delete(dataDir);
                    if (walDir.isPresent()) {
                        FileTree.delete(walDir.get());
                    }
                }
            }
            return replay(binaries, selection, baseFile, dataDir, walDir, scratch, whileRunning, note);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "scratch dir " + scratch + ": " + e.getMessage(), e);
        } finally {
            // the WAL dir first: the scratch dir's lock is what marks it as this live run's
            walDir.ifPresent(RestoreService::deleteScratch);
            deleteScratch(scratchDir);
        }
    }

    private RestoreOutcome replay(EtcdBinaries binaries, SnapshotSelection selection, Path baseFile, Path dataDir,
            Optional<Path> walDir, Path scratch, WhileRunning whileRunning, String note)
            throws IOException, InterruptedException {
        Instant t = clock.instant();
        new SnapshotRestorer(binaries, scratch, SnapshotRestorer.DEFAULT_TIMEOUT).restore(new SnapshotRestorer.Request(
                baseFile, config.member(), dataDir, walDir, config.skipHashCheck()));
        Files.deleteIfExists(baseFile);
        phase("restoreBase", t);
        EmbeddedEtcdConfig etcdConfig = etcdConfig(binaries, dataDir, walDir, scratch);
        try (ScratchEtcd etcd = ScratchEtcd.start(etcdConfig, config.callTimeout())) {
            long baseRevision = etcd.client().status().getHeader().getRevision();
            t = clock.instant();
            ReplayStats replay = new DeltaReplayer(store, etcd, config.replay(), scratch, clock)
                    .replay(selection.deltas(), selection.lastRevision());
            phase("replay", t);
            t = clock.instant();
            long expected = Math.max(selection.lastRevision(), baseRevision);
            if (replay.finalRevision() != expected) {
                throw new WorkerException(ErrorCode.BACKUP_INCONSISTENT, "restored etcd is at revision "
                        + replay.finalRevision() + " but the backup ends at " + expected);
            }
            KeyspaceDigest digest = KeyspaceDigest.of(etcd.client(), replay.finalRevision());
            LOG.info("verified revision={} keys={} kvSha256={} metaSha256={}", digest.revision(), digest.keys(),
                    digest.kvSha256(), digest.metaSha256());
            phase("verify", t);
            RestoreOutcome outcome = new RestoreOutcome(selection, baseRevision, replay, digest, dataDir, phases,
                    "replay", note);
            whileRunning.accept(etcd, outcome);
            t = clock.instant();
            etcd.stopProcess();
            copyWalBack(dataDir, walDir);
            phase("stopEtcd", t);
            return outcome.withPhases(dataDir, Collections.unmodifiableMap(new LinkedHashMap<>(phases)));
        }
    }

    /**
     * Lists the store and selects the base and the deltas after it, refusing a chain with gaps
     * (all of them named) before anything is downloaded.
     */
    public SnapshotSelection plan() {
        Instant t = clock.instant();
        SnapshotCatalog catalog = SnapshotCatalog.load(store, config.prefix());
        SnapshotSelection selection = catalog.select();
        selection.requireContiguous();
        LOG.info("restore plan base={} deltas={} deltaBytes={} revisions={}..{}", selection.base().key(),
                selection.deltas().size(), selection.deltaBytes(), selection.base().name().lastRevision(),
                selection.lastRevision());
        phase("select", t);
        return selection;
    }

    EmbeddedEtcdConfig etcdConfig(EtcdBinaries binaries, Path dataDir, Optional<Path> walDir, Path scratch) {
        return new EmbeddedEtcdConfig(binaries, config.member(), dataDir, walDir, scratch,
                config.quotaBytes(), ScratchEtcd.MIN_REQUEST_BYTES, ScratchEtcd.MIN_TXN_OPS, SCRATCH_SNAPSHOT_COUNT,
                EmbeddedEtcdConfig.DEFAULT_START_TIMEOUT, EmbeddedEtcdConfig.DEFAULT_STOP_TIMEOUT, 0);
    }

    private void download(SnapshotSelection selection, Path baseFile) throws IOException {
        try (InputStream in = SnapshotStreams.openDecompressed(store, selection.base());
                OutputStream out = Files.newOutputStream(baseFile)) {
            FullSnapshotReader.copy(selection.base().key(), in, out, config.skipHashCheck());
        }
    }

    /** The scratch etcd kept its WAL elsewhere (tmpfs): the data dir needs it back. */
    static void copyWalBack(Path dataDir, Optional<Path> walDir) throws IOException {
        if (walDir.isEmpty()) {
            return;
        }
        Path wal = dataDir.resolve("member").resolve("wal");
        FileTree.delete(wal);
        FileTree.copy(walDir.get(), wal);
        FileTree.fsync(wal);
        FileTree.delete(walDir.get());
        LOG.info("copied the WAL back from the scratch WAL dir into {}", wal);
    }

    /** This run's scratch dir, locked; what killed runs left there (and in the WAL dir) is removed first. */
    private ScratchDir createScratch() {
        try {
            ScratchDir dir = ScratchDir.create(config.scratchDir(), "restore-");
            try {
                if (config.scratchWalDir().isPresent()) {
                    ScratchDir.removeDead(config.scratchWalDir().get(), config.scratchDir(), ScratchDir.WAL_SUFFIX);
                }
            } catch (IOException e) {
                deleteScratch(dir);
                throw e;
            }
            return dir;
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot create a scratch dir under " + config.scratchDir()
                    + ": " + e.getMessage(), e);
        }
    }

    private static void deleteScratch(Path scratch) {
        try {
            FileTree.delete(scratch);
        } catch (IOException e) {
            LOG.warn("cannot remove scratch dir {}: {}", scratch, e.toString());
        }
    }

    private static void deleteScratch(ScratchDir scratch) {
        try {
            scratch.close();
        } catch (IOException e) {
            LOG.warn("cannot remove scratch dir {}: {}", scratch.path(), e.toString());
        }
    }

    void phase(String name, Instant started) {
        Duration took = Duration.between(started, clock.instant());
        phases.put(name, took);
        LOG.info("phase done phase={} ms={}", name, took.toMillis());
    }
}
