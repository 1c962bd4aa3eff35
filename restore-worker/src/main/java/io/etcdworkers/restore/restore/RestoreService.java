package io.etcdworkers.restore.restore;

import io.etcdworkers.restore.error.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.restore.etcd.EtcdBinaries;
import io.etcdworkers.restore.etcd.MaintenanceSnapshot;
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
 * restore the base with etcd's tools into a data dir in the scratch dir, replay the deltas into
 * a scratch etcd running on it, verify the revision and digest the keyspace, snapshot it, stop
 * etcd; then {@code snapshot restore} that verified database into {@code <data-dir>.part} with
 * the member's identity and rename it into place. The placed dir is never one an etcd ran on, so
 * no etcd version is stamped into it (see {@link PlacedDataDir}). On any failure the target is
 * left as it was.
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

    /** The scratch etcd's data dir, inside the run's scratch dir: verified, never placed. */
    static final String VERIFY_DATA_DIR = "verify.etcd";

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
            RestoreOutcome outcome = rebuild(binaries, plan(), Optional.of(target.part()), (etcd, o) -> { });
            Instant placing = clock.instant();
            target.place();
            phase("place", placing);
            LOG.info("restore done dataDir={} revision={} keys={}", config.dataDir(), outcome.digest().revision(),
                    outcome.digest().keys());
            return outcome.withPhases(config.dataDir(), Collections.unmodifiableMap(new LinkedHashMap<>(phases)));
        }
    }

    /**
     * Builds and verifies the database in a scratch etcd (its data dir in the scratch dir, its WAL
     * under {@code --scratch-wal-dir} when given), runs {@code whileRunning} against the still
     * running etcd, stops it; then, when {@code placeAt} is given (it must not exist or be empty),
     * restores the verified database into it with the member's identity. Renaming it into place
     * is the caller's. The scratch data dir is removed either way.
     */
    public RestoreOutcome rebuild(EtcdBinaries binaries, SnapshotSelection selection, Optional<Path> placeAt,
            WhileRunning whileRunning) throws InterruptedException {
        Instant t;
        ScratchDir scratchDir = createScratch();
        Path scratch = scratchDir.path();
        // a fresh WAL dir per run under --scratch-wal-dir: it must not exist before the restore
        Optional<Path> walDir = config.scratchWalDir().map(d -> d.resolve(scratch.getFileName() + "-wal"));
        Path dataDir = scratch.resolve(VERIFY_DATA_DIR);
        try {
            t = clock.instant();
            Path baseFile = scratch.resolve("base.db");
            download(selection, baseFile);
            phase("fetchBase", t);
            ScratchSpace.warnIfShort(scratch, walDir.isPresent(), Files.size(baseFile));
            String note = "";
            if (config.engine() != Engine.REPLAY) {
                try {
                    return new OfflineRebuild(this, store, config, clock)
                            .rebuild(binaries, selection, baseFile, dataDir, walDir, scratch, whileRunning, placeAt);
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
            return replay(binaries, selection, baseFile, dataDir, walDir, scratch, whileRunning, note, placeAt);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "scratch dir " + scratch + ": " + e.getMessage(), e);
        } finally {
            // the WAL dir first: the scratch dir's lock is what marks it as this live run's
            walDir.ifPresent(RestoreService::deleteScratch);
            deleteScratch(scratchDir);
        }
    }

    private RestoreOutcome replay(EtcdBinaries binaries, SnapshotSelection selection, Path baseFile, Path dataDir,
            Optional<Path> walDir, Path scratch, WhileRunning whileRunning, String note, Optional<Path> placeAt)
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
            Path verified = scratch.resolve("verified.db");
            if (placeAt.isPresent()) {
                t = clock.instant();
                MaintenanceSnapshot.save(etcd.client(), verified, MaintenanceSnapshot.DEFAULT_TIMEOUT);
                phase("snapshotVerified", t);
            }
            t = clock.instant();
            etcd.stopProcess();
            phase("stopEtcd", t);
            if (placeAt.isEmpty()) {
                return outcome.withPhases(dataDir, Collections.unmodifiableMap(new LinkedHashMap<>(phases)));
            }
            PlacedDataDir placed = place(binaries, verified, dataDir, walDir, scratch, placeAt.get());
            return outcome.withPhases(placeAt.get(), Collections.unmodifiableMap(new LinkedHashMap<>(phases)))
                    .withPlaced(placed);
        }
    }

    /**
     * Writes the placed data dir: a fresh {@code snapshot restore} of the verified database (its
     * SHA-256 trailer checked by the tool) with the member's identity and its WAL inside it. The
     * scratch etcd's data and WAL dirs go first, so the disk holds one copy besides the file.
     */
    PlacedDataDir place(EtcdBinaries binaries, Path verifiedDb, Path scratchDataDir, Optional<Path> walDir,
            Path scratch, Path placeAt) throws IOException {
        Instant t = clock.instant();
        FileTree.delete(scratchDataDir);
        if (walDir.isPresent()) {
            FileTree.delete(walDir.get());
        }
        new SnapshotRestorer(binaries, scratch, SnapshotRestorer.DEFAULT_TIMEOUT).restore(new SnapshotRestorer.Request(
                verifiedDb, config.member(), placeAt, Optional.empty(), false));
        Files.deleteIfExists(verifiedDb);
        phase("restorePlaced", t);
        return PlacedDataDir.of(binaries);
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
