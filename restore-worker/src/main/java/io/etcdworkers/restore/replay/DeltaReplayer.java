package io.etcdworkers.restore.replay;

import io.etcdworkers.restore.error.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.files.DiskFull;
import io.etcdworkers.restore.etcd.LogTail;
import io.etcdworkers.restore.snapshot.SnapshotObject;
import io.etcdworkers.restore.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays deltas into a running scratch etcd: fetch ahead in parallel (verified), decode on one
 * thread, apply on this one, one transaction per source revision, strictly in order; compacts
 * and defragments by the policy; keeps leases alive. See {@code docs/architecture.md}.
 */
public final class DeltaReplayer {
    private static final Logger LOG = LoggerFactory.getLogger(DeltaReplayer.class);

    private final ObjectStore store;
    private final ScratchEtcd etcd;
    private final ReplayConfig config;
    private final Path scratchDir;
    private final Clock clock;

    public DeltaReplayer(ObjectStore store, ScratchEtcd etcd, ReplayConfig config, Path scratchDir, Clock clock) {
        this.store = store;
        this.etcd = etcd;
        this.config = config;
        this.scratchDir = scratchDir;
        this.clock = clock;
    }

    /**
     * Applies {@code deltas} on top of the database etcd holds now.
     *
     * @param lastRevision the revision the chain ends at (for progress)
     */
    public ReplayStats replay(List<SnapshotObject> deltas, long lastRevision) throws InterruptedException {
        Instant started = clock.instant();
        long baseRevision = etcd.client().status().getHeader().getRevision();
        LOG.info("replay start deltas={} baseRevision={} lastRevision={} maxFetchers={} defragPolicy={}",
                deltas.size(), baseRevision, lastRevision, config.maxFetchers(), config.defrag());
        Path downloads = createDir(scratchDir.resolve("deltas"));
        try (LeaseKeeper leases = new LeaseKeeper(etcd::client, config.leaseTtlSeconds());
                DeltaPrefetcher prefetcher = new DeltaPrefetcher(store, deltas, downloads, config.maxFetchers())) {
            leases.trackExisting();
            RevisionApplier applier = new RevisionApplier(etcd::client, leases, baseRevision);
            Defragmenter defrag = new Defragmenter(etcd::client, new DefragPolicy(config.defrag()),
                    config.defragTimeout(), clock);
            ReplayProgress progress = new ReplayProgress(clock, config.progressEvery(), deltas.size(), baseRevision,
                    Math.max(lastRevision, baseRevision));
            DecodeStage stage = new DecodeStage(prefetcher, config.decodeBudgetBytes());
            Thread decoder = new Thread(stage, "delta-decode");
            decoder.setDaemon(true);
            decoder.start();
            int deltasDone = 0;
            int largestEvents = 0;
            long largestBytes = 0;
            try {
                String current = "";
                while (true) {
                    ReplayItem item = stage.take();
                    if (item instanceof ReplayItem.Group g) {
                        int applied = applyNamingEtcdDeath(applier, current, g);
                        stage.release(g);
                        defrag.eventsApplied(applied);
                        defrag.checkEvents(applier.currentRevision());
                    } else if (item instanceof ReplayItem.DeltaStart start) {
                        current = start.delta().object().key();
                        largestEvents = Math.max(largestEvents, start.delta().summary().largestGroupEvents());
                        largestBytes = Math.max(largestBytes, start.delta().summary().largestGroupBytes());
                        etcd.ensureFits(start.delta().summary().largestGroupBytes(),
                                start.delta().summary().largestGroupEvents());
                        LOG.debug("delta start snapshot={} events={}", current, start.delta().summary().events());
                    } else if (item instanceof ReplayItem.DeltaEnd end) {
                        applier.checkDeltaEnd(end.delta());
                        Files.deleteIfExists(end.delta().file());
                        deltasDone++;
                        defrag.deltaDone();
                        defrag.check(applier.currentRevision());
                        LOG.debug("delta done snapshot={} revision={}", current, applier.currentRevision());
                        if (progress.due()) {
                            progress.log(deltasDone, applier.appliedEvents(), applier.currentRevision(),
                                    defrag.lastDbSize(), defrag.lastInUse(), defrag.stats());
                        }
                    } else if (item instanceof ReplayItem.Failure failure) {
                        throw failure.error();
                    } else {
                        break;
                    }
                }
            } catch (IOException e) {
                throw new WorkerException(ErrorCode.LOCAL_IO, "cannot remove a replayed delta copy: " + e, e);
            } finally {
                decoder.interrupt();
                prefetcher.close();
                decoder.join(Duration.ofSeconds(30).toMillis());
            }
            int revoked = leases.revokeUnusedGranted();
            long finalRevision = etcd.client().status().getHeader().getRevision();
            if (finalRevision != applier.currentRevision()) {
                throw new WorkerException(ErrorCode.ETCD_FAILURE, "scratch etcd moved from revision "
                        + applier.currentRevision() + " to " + finalRevision + " after the replay (an expired lease?)");
            }
            defrag.status();
            progress.log(deltasDone, applier.appliedEvents(), finalRevision, defrag.lastDbSize(), defrag.lastInUse(),
                    defrag.stats());
            return new ReplayStats(deltasDone, applier.appliedGroups(), applier.appliedEvents(), applier.skippedEvents(),
                    finalRevision, largestEvents, largestBytes, leases.grantedCount(), revoked, etcd.restarts(),
                    defrag.stats(), defrag.lastDbSize(), Duration.between(started, clock.instant()));
        }
    }

    /** A failed call because etcd died says so, with its last log lines, the delta and the revision. */
    private int applyNamingEtcdDeath(RevisionApplier applier, String delta, ReplayItem.Group g) {
        try {
            return applier.apply(delta, g.group());
        } catch (WorkerException e) {
            if (e.code() != ErrorCode.ETCD_FAILURE && e.code() != ErrorCode.ETCD_QUOTA_EXCEEDED) {
                throw e;
            }
            String state = etcd.process().isAlive() ? "etcd is still running"
                    : "the etcd process exited; its last output: " + LogTail.excerpt(etcd.process().logFile(), 10);
            if (DiskFull.says(state) || DiskFull.says(e.getMessage())) {
                // etcd died (or refused) for lack of space: the disk's fault, and the message says which one
                throw new WorkerException(ErrorCode.LOCAL_IO, String.format(
                        "replaying %s failed at revision %d (etcd at %d): %s; %s; %s", delta, g.group().revision(),
                        applier.currentRevision(), DiskFull.describe(etcd.process().dataDir()), e.getMessage(), state), e);
            }
            throw new WorkerException(e.code(), String.format(
                    "replaying %s failed at revision %d (etcd at %d): %s; %s", delta, g.group().revision(),
                    applier.currentRevision(), e.getMessage(), state), e);
        }
    }

    private static Path createDir(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot create " + dir + ": " + e.getMessage(), e);
        }
    }
}
