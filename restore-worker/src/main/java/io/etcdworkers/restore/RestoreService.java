package io.etcdworkers.restore;

import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.rebuild.Rebuild;
import io.etcdworkers.rebuild.RebuildPlan;
import io.etcdworkers.rebuild.Rebuilder;
import io.etcdworkers.rebuild.bump.ChainEnd;
import io.etcdworkers.rebuild.bump.ChainEndReader;
import io.etcdworkers.rebuild.bump.RevisionBump;
import io.etcdworkers.rebuild.engine.Phases;
import io.etcdworkers.rebuild.engine.Placement;
import io.etcdworkers.rebuild.engine.VerifiedDatabase;
import io.etcdworkers.store.ObjectStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The restore, top to bottom, one named step each:
 * <ol>
 *   <li>take the target ({@link TargetDir}: {@code <data-dir>.part}, locked);
 *   <li>plan: select the base and deltas, refusing gaps before anything is downloaded
 *       ({@link Rebuilder#plan});
 *   <li>build: download the base and have the engine build the database in a scratch dir
 *       ({@link Rebuilder#start});
 *   <li>verify it with a real etcd ({@link Rebuild#verify});
 *   <li>place it into the part with the member's identity ({@link Placement#complete});
 *   <li>bump the part's revision past the bucket's when a point in time calls for it
 *       ({@link BumpSetting}), checked by an etcd of its own ({@link BumpedPlacement});
 *   <li>rename the part into place ({@link TargetDir#place}).
 * </ol>
 * The bytes placed are the bytes verified: the offline engine restores its database once with the
 * member's identity and copies the restored dir into the part before the verifying etcd starts on
 * the original, so placing it only stops that etcd; the replay's database is taken from its
 * running etcd as a file after the verification, that etcd stopped, and the file restored into
 * the part. The placed dir is never one an etcd ran on, so no etcd version is stamped into it (see
 * {@link PlacedDataDir}). On any failure the target is left as it was and the scratch dir is
 * removed.
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
        Rebuilder rebuilder = new Rebuilder(store, config.rebuild(), clock);
        // a missing etcd is reported before the target is touched
        EtcdBinaries binaries = rebuilder.binaries();
        try (TargetDir target = TargetDir.prepare(config.dataDir(), config.force())) {
            RebuildPlan plan = rebuilder.plan();
            Placement placement = new Placement(config.rebuild().member(), target.part());
            VerifiedDatabase verified;
            PlacedBump bump;
            try (Rebuild rebuild = rebuilder.start(plan, placement)) {
                verified = rebuild.verify();
                placement.complete(verified);
                bump = bump(binaries, plan, verified, target.part(), rebuild.scratch(), rebuilder.phases());
            }
            rebuilder.phases().time("place", target::place);
            LOG.atInfo()
                    .setMessage("restore done")
                    .addKeyValue("dataDir", config.dataDir())
                    .addKeyValue("revision", verified.outcome().finalRevision())
                    .addKeyValue("keys", verified.outcome().digest().keys())
                    .log();
            return new RestoreOutcome(
                    verified.outcome(),
                    config.dataDir(),
                    PlacedDataDir.of(binaries),
                    rebuilder.phases().snapshot(),
                    bump.bump(),
                    bump.chainEnd());
        }
    }

    /**
     * The revision bump of the placed dir, when one is asked for or the point in time calls for it
     * ({@link BumpSetting}), verified by an etcd of its own ({@link BumpedPlacement}). The default
     * bump passes the revision the bucket's chain reaches, listed now (after the rebuild, so what
     * the sidecar wrote meanwhile counts) and confirmed by the chain's newest object's content
     * ({@link ChainEndReader}).
     */
    private PlacedBump bump(
            EtcdBinaries binaries, RebuildPlan plan, VerifiedDatabase verified, Path part, Path scratch, Phases phases)
            throws InterruptedException {
        BumpSetting setting = config.bump();
        long restored = BumpedPlacement.latestRevision(part);
        Optional<ChainEnd> chainEnd = Optional.empty();
        if (setting.isDefault() && config.rebuild().point().isPointInTime()) {
            Instant t = phases.start();
            List<SnapshotObject> listing =
                    SnapshotCatalog.load(store, config.rebuild().prefix()).snapshots();
            chainEnd = Optional.of(new ChainEndReader(store, scratch)
                    .read(listing, plan.selection().base()));
            phases.done("chainEnd", t);
        }
        long amount = setting.amountFor(
                config.rebuild().point(),
                restored,
                chainEnd.map(ChainEnd::revision).orElse(0L));
        if (amount == 0) {
            if (config.rebuild().point().isPointInTime()) {
                LOG.warn(
                        "point-in-time restore without a revision bump (--bump-revision=0): the backup sidecar "
                                + "restores the bucket's latest state over it when its revision {} is below the bucket's latest",
                        verified.outcome().finalRevision());
            }
            return new PlacedBump(Optional.empty(), chainEnd);
        }
        return new PlacedBump(
                Optional.of(BumpedPlacement.apply(
                        binaries,
                        config.rebuild().member(),
                        part,
                        amount,
                        verified.outcome().digest(),
                        scratch,
                        config.rebuild().settings().callTimeout(),
                        phases)),
                chainEnd);
    }

    /** The bump written (if any) and the chain end it was computed from (if it was). */
    private record PlacedBump(Optional<RevisionBump> bump, Optional<ChainEnd> chainEnd) {}
}
