package io.etcdworkers.rebuild.replay;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.ScratchEtcd;
import io.etcdworkers.files.OwnerOnly;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.rebuild.engine.EngineSettings;
import io.etcdworkers.rebuild.engine.RebuildStats;
import io.etcdworkers.rebuild.engine.ReplayWork;
import io.etcdworkers.rebuild.fetch.DecodingStream;
import io.etcdworkers.rebuild.fetch.DeltaPrefetcher;
import io.etcdworkers.rebuild.fetch.DeltaStream;
import io.etcdworkers.rebuild.sequence.RevisionPipeline;
import io.etcdworkers.rebuild.sequence.RevisionSequence;
import io.etcdworkers.rebuild.sequence.SequenceStats;
import io.etcdworkers.rebuild.verify.KeySample;
import io.etcdworkers.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays deltas into a running scratch etcd: fetched ahead in parallel (verified), decoded on
 * one thread, applied through the shared {@link RevisionPipeline}, one transaction per source revision,
 * strictly in order ({@link TxnChain}); compacts and defragments by the policy; keeps leases alive.
 */
final class DeltaReplayer {
    private static final Logger LOG = LoggerFactory.getLogger(DeltaReplayer.class);

    private final ObjectStore store;
    private final ScratchEtcd etcd;
    private final EngineSettings settings;
    private final ReplayConfig config;
    private final Clock clock;

    DeltaReplayer(ObjectStore store, ScratchEtcd etcd, EngineSettings settings, ReplayConfig config, Clock clock) {
        this.store = store;
        this.etcd = etcd;
        this.settings = settings;
        this.config = config;
        this.clock = clock;
    }

    /**
     * Applies the deltas of {@code selection} on top of the database etcd holds now, up to its
     * point; every key put is offered to {@code keys}.
     */
    RebuildStats replay(SnapshotSelection selection, Path scratch, KeySample keys) throws InterruptedException {
        List<SnapshotObject> deltas = selection.deltas();
        long lastRevision = selection.targetRevision();
        Instant started = clock.instant();
        long baseRevision = etcd.client().status().getHeader().getRevision();
        LOG.atInfo()
                .setMessage("replay start")
                .addKeyValue("deltas", deltas.size())
                .addKeyValue("baseRevision", baseRevision)
                .addKeyValue("lastRevision", lastRevision)
                .addKeyValue("maxFetchers", settings.maxFetchers())
                .addKeyValue("defragPolicy", config.defrag())
                .log();
        Path downloads = createDir(scratch.resolve("deltas"));
        Defragmenter defrag =
                new Defragmenter(etcd::client, new DefragPolicy(config.defrag()), config.defragTimeout(), clock);
        try (LeaseKeeper leases = new LeaseKeeper(etcd::client, settings.leaseTtlSeconds())) {
            leases.trackExisting();
            SequenceStats sequence;
            EtcdTxnSink sink = new EtcdTxnSink(etcd, leases, defrag, baseRevision, keys);
            try (DeltaStream stream = new DecodingStream(
                    new DeltaPrefetcher(
                            store, deltas, downloads, settings.maxFetchers(), DeltaPrefetcher.Mode.RAW_COPY),
                    settings.decodeBudgetBytes())) {
                sequence = new RevisionPipeline("replay", clock, settings.progressEvery())
                        .run(stream, new RevisionSequence(baseRevision), sink, selection);
            }
            sink.drain(); // a stop inside a delta (--to-revision, --to-last-good) leaves transactions in flight
            int revoked = leases.revokeUnusedGranted();
            long finalRevision = etcd.client().status().getHeader().getRevision();
            if (finalRevision != sequence.finalRevision()) {
                throw new WorkerException(
                        ErrorCode.ETCD_FAILURE,
                        "scratch etcd moved from revision " + sequence.finalRevision() + " to " + finalRevision
                                + " after the replay (an expired lease?)");
            }
            defrag.status();
            return new RebuildStats(
                    sequence,
                    leases.grantedCount(),
                    defrag.lastDbSize(),
                    Duration.between(started, clock.instant()),
                    new ReplayWork(revoked, etcd.restarts(), defrag.stats()));
        }
    }

    private static Path createDir(Path dir) {
        try {
            return OwnerOnly.createDirectories(dir);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot create " + dir + ": " + e.getMessage(), e);
        }
    }
}
