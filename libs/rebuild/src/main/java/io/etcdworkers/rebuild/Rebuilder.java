package io.etcdworkers.rebuild;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.files.OwnerOnly;
import io.etcdworkers.files.ScratchDir;
import io.etcdworkers.format.FullSnapshotReader;
import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.format.SnapshotStreams;
import io.etcdworkers.rebuild.engine.BuiltDatabase;
import io.etcdworkers.rebuild.engine.DatabaseEngine;
import io.etcdworkers.rebuild.engine.EngineInput;
import io.etcdworkers.rebuild.engine.EngineRefused;
import io.etcdworkers.rebuild.engine.Phases;
import io.etcdworkers.rebuild.engine.Placement;
import io.etcdworkers.rebuild.offline.OfflineEngine;
import io.etcdworkers.rebuild.replay.ReplayEngine;
import io.etcdworkers.rebuild.sequence.BaseBeyondTarget;
import io.etcdworkers.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The front of every rebuild, for the restore and the compaction alike: list the store and select
 * the base and its deltas ({@link #plan()}), then in a fresh locked scratch dir download the base
 * and have the configured engine build the database ({@link #start}). The {@link Rebuild} it
 * returns is verified and used by the caller, and removes the scratch dir when closed. It times
 * the run's phases ({@link #phases()}) and finds etcd once: when the caller asks
 * ({@link #binaries()}), or else when the build needs it, so a run that stops before building
 * never looks for etcd.
 */
public final class Rebuilder {
    private static final Logger LOG = LoggerFactory.getLogger(Rebuilder.class);

    /** The scratch etcd's data dir, inside the run's scratch dir: verified, never placed. */
    public static final String VERIFY_DATA_DIR = "verify.etcd";

    private final ObjectStore store;
    private final RebuildConfig config;
    private final Phases phases;
    private EtcdBinaries binaries;

    public Rebuilder(ObjectStore store, RebuildConfig config, Clock clock) {
        this.store = store;
        this.config = config;
        this.phases = new Phases(clock);
    }

    /** The wall time of each phase of this run; the caller adds its own. */
    public Phases phases() {
        return phases;
    }

    /**
     * etcd and its tools, from {@code --etcd-bin-dir} or PATH, found on the first call; a missing
     * one is a usage error. A caller that must not touch anything without etcd calls it first.
     */
    public EtcdBinaries binaries() {
        if (binaries == null) {
            binaries = EtcdBinaries.locate(config.etcdBinDir(), config.path());
        }
        return binaries;
    }

    /**
     * Lists the store and selects the base and the deltas after it, up to the configured point,
     * refusing a chain with gaps (all of them named) before anything is downloaded; with {@code
     * --to-last-good} the selection ends before the first gap instead.
     */
    public RebuildPlan plan() {
        Instant t = phases.start();
        SnapshotCatalog catalog = SnapshotCatalog.load(store, config.prefix());
        SnapshotSelection selection = usable(catalog.select(config.point()));
        List<SnapshotSelection> fallbacks = new ArrayList<>();
        for (SnapshotSelection older : catalog.olderChains(config.point(), selection.base())) {
            try {
                fallbacks.add(older.usable());
            } catch (WorkerException e) {
                LOG.debug("no fallback from {}: {}", older.base().key(), e.getMessage());
            }
        }
        RebuildPlan plan = new RebuildPlan(catalog, selection, fallbacks);
        phases.done("select", t);
        return plan;
    }

    private static SnapshotSelection usable(SnapshotSelection selected) {
        SnapshotSelection selection = selected.usable();
        LOG.atInfo()
                .setMessage(selection.point().lastGood() ? "restore plan (to the last good)" : "restore plan")
                .addKeyValue("base", selection.base().key())
                .addKeyValue("deltas", selection.deltas().size())
                .addKeyValue("deltaBytes", selection.deltaBytes())
                .addKeyValue("baseRevision", selection.base().name().lastRevision())
                .addKeyValue("lastRevision", selection.lastRevision())
                .addKeyValue("point", selection.point().stopAt().describe())
                .log();
        selection
                .omitted()
                .forEach(o -> LOG.warn(
                        "--to-last-good: left out revisions {}..{} {}: {}",
                        o.firstRevision(),
                        o.lastRevision(),
                        o.object().orElse("(no object)"),
                        o.reason()));
        return selection;
    }

    /**
     * Creates this run's scratch dir (removing what killed runs left there), downloads the base and
     * builds the database with the configured engine. The scratch etcd's data dir is {@value
     * #VERIFY_DATA_DIR} in it, its WAL under {@code --scratch-wal-dir} when given. When the revision
     * asked for turns out to be inside the base's database, it starts again from the full snapshot
     * before it (see {@link BaseBeyondTarget}).
     */
    public Rebuild start(RebuildPlan plan) throws InterruptedException {
        return start(plan, Optional.empty());
    }

    /**
     * The same, for a restore that places the database ({@code <data-dir>.part}, absent or empty,
     * with the member's identity): an engine that writes its database as a file restores it once
     * with that identity and places the restored dir before its verifying etcd starts on it (see
     * {@link Placement}); after the verification, {@link Placement#complete} places what is not
     * placed yet.
     */
    public Rebuild start(RebuildPlan plan, Placement placement) throws InterruptedException {
        return start(plan, Optional.of(placement));
    }

    private Rebuild start(RebuildPlan plan, Optional<Placement> placement) throws InterruptedException {
        EtcdBinaries binaries = binaries();
        RebuildPlan current = plan;
        while (true) {
            try {
                return startOnce(binaries, current.selection(), placement);
            } catch (BaseBeyondTarget e) {
                Optional<SnapshotSelection> earlier = current.before(e.base());
                if (earlier.isEmpty()) {
                    throw e;
                }
                LOG.warn("{}; starting again from the full snapshot before it", e.finding());
                current = current.with(usable(earlier.get()));
            } catch (DamagedBase e) {
                current = current.afterDamagedBase(e.damage());
                LOG.atWarn()
                        .setMessage("the full snapshot is damaged: restoring from the older chain instead")
                        .addKeyValue("damaged", e.damage().getMessage())
                        .addKeyValue("base", current.selection().base().key())
                        .addKeyValue("lastRevision", current.selection().lastRevision())
                        .addKeyValue("newestChainRevision", current.newestChainRevision())
                        .log();
                usable(current.selection());
            }
        }
    }

    private Rebuild startOnce(EtcdBinaries binaries, SnapshotSelection selection, Optional<Placement> placement)
            throws InterruptedException {
        ScratchDir scratchDir = createScratch();
        Path scratch = scratchDir.path();
        // a fresh WAL dir per run under --scratch-wal-dir: it must not exist before the restore
        Optional<Path> walDir =
                config.scratchWalDir().map(d -> d.resolve(scratch.getFileName() + ScratchDir.WAL_SUFFIX));
        Rebuild rebuild = new Rebuild(scratchDir, walDir);
        try {
            Instant t = phases.start();
            Path baseFile = scratch.resolve("base.db");
            downloadChecked(selection, baseFile);
            phases.done("fetchBase", t);
            ScratchSpace.warnIfShort(scratch, walDir.isPresent(), Files.size(baseFile));
            // the scratch etcd runs as the member alone; a restore's placement keeps the whole initial
            // cluster (the offline engine restores with it and starts etcd with --force-new-cluster)
            EngineInput input = new EngineInput(
                    binaries,
                    config.member().alone(),
                    selection,
                    baseFile,
                    config.skipHashCheck(),
                    scratch,
                    scratch.resolve(VERIFY_DATA_DIR),
                    walDir,
                    phases,
                    placement);
            rebuild.built(build(input));
            return rebuild;
        } catch (IOException e) {
            rebuild.close();
            throw new WorkerException(ErrorCode.LOCAL_IO, "scratch dir " + scratch + ": " + e.getMessage(), e);
        } catch (RuntimeException | Error | InterruptedException e) {
            // an exhausted heap too: the scratch must not outlive the run
            rebuild.close();
            throw e;
        }
    }

    private BuiltDatabase build(EngineInput input) throws InterruptedException {
        try {
            return engine().build(input);
        } catch (EngineRefused e) {
            throw Rebuild.refused(e);
        }
    }

    private DatabaseEngine engine() {
        ReplayEngine replay = new ReplayEngine(store, config.settings(), config.replay(), phases.clock());
        OfflineEngine offline = new OfflineEngine(store, config.settings(), phases.clock(), config.keys());
        return switch (config.engine()) {
            case REPLAY -> replay;
            case OFFLINE -> offline;
            case AUTO -> new FallbackEngine(offline, replay);
        };
    }

    /**
     * Downloads the base and checks its bbolt structure; a base that is damaged (hash, cut short,
     * not decodable, structure) is a {@link DamagedBase}, the run's scratch removed, so the caller
     * can go on from an older chain (the caller removes the run's scratch).
     */
    private void downloadChecked(SnapshotSelection selection, Path baseFile) throws IOException {
        try {
            download(selection, baseFile);
            BaseStructure.check(selection.base().key(), baseFile);
        } catch (WorkerException e) {
            if (!DamagedBase.isDamage(e.code())) {
                throw e;
            }
            throw new DamagedBase(e);
        }
    }

    private void download(SnapshotSelection selection, Path baseFile) throws IOException {
        try (InputStream in = SnapshotStreams.openDecompressed(store, selection.base());
                OutputStream out = OwnerOnly.newOutputStream(baseFile)) {
            FullSnapshotReader.copy(selection.base().key(), in, out, config.skipHashCheck());
        }
    }

    /** This run's scratch dir, locked; what killed runs left there (and in the WAL dir) is removed first. */
    private ScratchDir createScratch() {
        try {
            return ScratchDir.create(config.scratchDir(), "restore-", config.scratchWalDir());
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot create a scratch dir under " + config.scratchDir() + ": " + e.getMessage(),
                    e);
        }
    }
}
