package io.etcdworkers.restore;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.rebuild.bump.RevisionBump;
import io.etcdworkers.rebuild.engine.Phases;
import io.etcdworkers.rebuild.engine.VerifiedDatabase;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.etcd.MaintenanceSnapshot;
import io.etcdworkers.etcd.SnapshotRestorer;
import io.etcdworkers.rebuild.Rebuild;
import io.etcdworkers.rebuild.Rebuilder;
import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The restore, top to bottom: take the target ({@code <data-dir>.part}, locked), select the base
 * and deltas (refusing gaps up front), rebuild and verify the database in a scratch etcd, and
 * rename the part into place. The part holds the verified database with the member's identity:
 * the offline engine restores its database once with that identity and copies the restored dir
 * into the part before the verifying etcd starts on the original (the bytes placed are the bytes
 * verified); after the replay's verification, the running etcd's database is taken as a file, that
 * etcd stopped, and the file restored into the part. The placed dir is never one an etcd ran on, so
 * no etcd version is stamped into it (see {@link PlacedDataDir}). On any failure the target is
 * left as it was and the scratch dir is removed.
 */
public final class RestoreService {
    private static final Logger LOG = LoggerFactory.getLogger(RestoreService.class);

    private final ObjectStore store;
    private final RestoreConfig config;
    private final Clock clock;

    public RestoreService(ObjectStore store, RestoreConfig config, Clock clock) {
        this.store = store;
        this.config = config;
        this.clock = clock;
    }

    public RestoreOutcome restore() throws InterruptedException {
        Phases phases = new Phases(clock);
        Rebuilder rebuilder = new Rebuilder(store, config.rebuild(), phases);
        EtcdBinaries binaries = rebuilder.binaries();
        try (TargetDir target = TargetDir.prepare(config.dataDir(), config.force())) {
            SnapshotSelection selection = rebuilder.plan();
            PlacedDataDir placed;
            VerifiedDatabase verified;
            Optional<RevisionBump> bump;
            try (Rebuild rebuild = rebuilder.start(binaries, selection, Optional.of(target.part()))) {
                verified = rebuild.verify();
                if (verified.placed()) {
                    verified.stopEtcd();
                    placed = PlacedDataDir.of(binaries);
                } else {
                    Path database = verified.databaseFile(rebuild.scratch().resolve("verified.db"),
                            MaintenanceSnapshot.DEFAULT_TIMEOUT);
                    verified.stopEtcd();
                    placed = restoreInto(binaries, database, target.part(), rebuild.scratch(), phases);
                }
                bump = bump(binaries, verified, target.part(), rebuild.scratch(), phases);
            }
            Instant t = phases.start();
            target.place();
            phases.done("place", t);
            LOG.info("restore done dataDir={} revision={} keys={}", config.dataDir(), verified.outcome().finalRevision(),
                    verified.outcome().digest().keys());
            return new RestoreOutcome(verified.outcome(), config.dataDir(), placed, phases.snapshot(), bump);
        }
    }

    /**
     * The revision bump of the placed dir, when one is asked for or the point in time calls for it
     * ({@link BumpSetting}), verified by an etcd of its own ({@link BumpedPlacement}).
     */
    private Optional<RevisionBump> bump(EtcdBinaries binaries, VerifiedDatabase verified, Path part, Path scratch,
            Phases phases) {
        BumpSetting setting = config.bump();
        long restored = BumpedPlacement.latestRevision(part);
        long bucketLatest = setting.isDefault() && config.rebuild().point().isPointInTime()
                ? BumpedPlacement.bucketLatest(store, config.rebuild().prefix()) : 0;
        long amount = setting.amountFor(config.rebuild().point(), restored, bucketLatest);
        if (amount == 0) {
            if (config.rebuild().point().isPointInTime()) {
                LOG.warn("point-in-time restore without a revision bump (--bump-revision=0): the backup sidecar "
                        + "restores the bucket's latest state over it when its revision {} is below the bucket's latest",
                        verified.outcome().finalRevision());
            }
            return Optional.empty();
        }
        return Optional.of(BumpedPlacement.apply(binaries, config.rebuild().member(), part, amount,
                verified.outcome().digest(), scratch, config.rebuild().settings().callTimeout(), phases));
    }

    /**
     * Writes the placed data dir: a fresh {@code snapshot restore} of the verified database (its
     * SHA-256 trailer checked by the tool) with the member's identity and its WAL inside it.
     */
    private PlacedDataDir restoreInto(EtcdBinaries binaries, Path verifiedDb, Path part, Path scratch, Phases phases) {
        Instant t = phases.start();
        new SnapshotRestorer(binaries, scratch, SnapshotRestorer.DEFAULT_TIMEOUT).restore(new SnapshotRestorer.Request(
                verifiedDb, config.rebuild().member(), part, Optional.empty(), false));
        try {
            Files.deleteIfExists(verifiedDb);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot remove " + verifiedDb + ": " + e.getMessage(), e);
        }
        phases.done("restorePlaced", t);
        return PlacedDataDir.of(binaries);
    }
}
