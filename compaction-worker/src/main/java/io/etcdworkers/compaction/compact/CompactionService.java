package io.etcdworkers.compaction.compact;

import io.etcd.jetcd.api.StatusResponse;
import io.etcdworkers.compaction.lease.KubernetesClients;
import io.etcdworkers.compaction.lease.LeaseRenewalConfig;
import io.etcdworkers.compaction.lease.SnapshotLeaseUpdater;
import io.etcdworkers.etcd.EtcdGrpcClient;
import io.etcdworkers.files.ScratchSweep;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.format.SnapshotStreams;
import io.etcdworkers.format.codec.Compression;
import io.etcdworkers.rebuild.Rebuild;
import io.etcdworkers.rebuild.RebuildPlan;
import io.etcdworkers.rebuild.Rebuilder;
import io.etcdworkers.rebuild.engine.Engine;
import io.etcdworkers.rebuild.engine.VerifiedDatabase;
import io.etcdworkers.store.ObjectStore;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the latest full snapshot and its deltas into one new full snapshot that sorts as the next
 * base, top to bottom: select; skip if too little accumulated; rebuild in the scratch dir; when
 * the engine wrote a database file (offline), start uploading it while a real etcd verifies it;
 * verify; compact at the last revision (and defragment a replayed database); commit the early
 * upload, or stream {@code Maintenance.Snapshot} out of the replayed etcd, stop it and upload
 * that; renew the full-snapshot Lease when asked. Deletes nothing in the bucket; an upload not
 * committed is aborted.
 */
public final class CompactionService {
    private static final Logger LOG = LoggerFactory.getLogger(CompactionService.class);

    private final ObjectStore store;
    private final ObjectStore target;
    private final String targetPrefix;
    private final boolean keepFinal;
    private final CompactionConfig config;
    private final Clock clock;
    private final KubernetesClients kubernetes;

    public CompactionService(ObjectStore store, CompactionConfig config, Clock clock, KubernetesClients kubernetes) {
        this(store, store, config.rebuild().prefix(), true, config, clock, kubernetes);
    }

    /**
     * A compaction whose new full snapshot goes into another store (a copy's {@code --compact}),
     * named without {@code .final} unless {@code keepFinal}.
     */
    public CompactionService(
            ObjectStore source,
            ObjectStore target,
            String targetPrefix,
            boolean keepFinal,
            CompactionConfig config,
            Clock clock,
            KubernetesClients kubernetes) {
        this.store = source;
        this.target = target;
        this.targetPrefix = targetPrefix;
        this.keepFinal = keepFinal;
        this.config = config;
        this.clock = clock;
        this.kubernetes = kubernetes;
    }

    public CompactionOutcome compact() throws InterruptedException {
        Rebuilder rebuilder = new Rebuilder(store, config.rebuild(), clock);
        RebuildPlan plan = rebuilder.plan();
        SnapshotSelection selection = plan.selection();
        Optional<String> skip = config.thresholds().skipReason(selection);
        if (skip.isPresent()) {
            LOG.info("compaction skipped: {}", skip.get());
            // a run killed after it committed leaves its scratch dir, and the next run skips:
            // no scratch dir is created here, so the sweep that creating one does must run anyway
            sweepDeadScratch();
            return new CompactionOutcome.Skipped(
                    selection, skip.get(), rebuilder.phases().snapshot());
        }
        // etcd is looked for only by a run that is not skipped, and before anything else can fail
        rebuilder.binaries();
        Compression compression = config.compression().orElseGet(() -> codecOfLast(selection));
        boolean isFinal = keepFinal && selection.base().name().isFinal();
        SnapshotUploader uploader = new SnapshotUploader(target, targetPrefix);
        ExecutorService background = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "snapshot-upload");
            t.setDaemon(true);
            return t;
        });
        Optional<SnapshotUploader.Pending> early = Optional.empty();
        try (Rebuild rebuild = rebuilder.start(plan)) {
            early = rebuild.written()
                    .map(w ->
                            uploader.start(w.file(), w.revision(), compression, isFinal, clock.instant(), background));
            VerifiedDatabase verified = rebuild.verify();
            long revision = verified.outcome().finalRevision();
            boolean offline = verified.outcome().engine() == Engine.OFFLINE;
            // the offline engine wrote a database compacted at this revision and without free pages
            long sizeBefore = compactAndDefragment(verified.etcd().client(), revision, config.defragment() && !offline)
                    .getDbSize();
            long sizeAfter = verified.etcd().client().status().getDbSize();
            UploadedSnapshot uploaded;
            if (offline) {
                uploaded = early.orElseThrow().commit();
            } else {
                // a replayed database (the offline one refused, if there was one: it must not land)
                early.ifPresent(SnapshotUploader.Pending::close);
                early = Optional.empty();
                Path snapshot =
                        verified.databaseFile(rebuild.scratch().resolve("snapshot.db"), config.snapshotTimeout());
                // uploaded once etcd is stopped, so the two do not add up in memory
                verified.stopEtcd();
                uploaded = uploader.upload(snapshot, revision, compression, isFinal, clock.instant());
            }
            Optional<SnapshotLeaseUpdater.Result> lease = config.leaseRenewal().map(l -> renew(l, revision));
            return new CompactionOutcome.Compacted(
                    selection,
                    verified.outcome(),
                    sizeBefore,
                    sizeAfter,
                    uploaded,
                    lease,
                    rebuilder.phases().snapshot());
        } finally {
            early.ifPresent(SnapshotUploader.Pending::close);
            background.shutdownNow();
        }
    }

    /** The last delta's codec, as etcd-backup-restore picks it; the base's when the suffix is unknown. */
    static Compression codecOfLast(SnapshotSelection selection) {
        SnapshotObject last = selection.deltas().isEmpty()
                ? selection.base()
                : selection.deltas().get(selection.deltas().size() - 1);
        return last.name().compression().orElseGet(() -> SnapshotStreams.codecOf(selection.base()));
    }

    /**
     * @return etcd's status after the compaction and before the defragmentation: the file size
     *     then is the size before (compaction only frees pages), and it is fresh (etcd's status
     *     can lag up to one backend commit behind the last write)
     */
    private StatusResponse compactAndDefragment(EtcdGrpcClient client, long revision, boolean defragment) {
        // false when a policy defragmentation compacted at this very revision already
        client.compact(revision, config.rebuild().replay().defragTimeout());
        StatusResponse before = client.status();
        if (defragment) {
            client.defragment(config.rebuild().replay().defragTimeout());
        }
        StatusResponse after = client.status();
        LOG.atInfo()
                .setMessage("final compaction")
                .addKeyValue("revision", revision)
                .addKeyValue("defragmented", defragment)
                .addKeyValue("dbSizeBefore", before.getDbSize())
                .addKeyValue("dbSizeAfter", after.getDbSize())
                .addKeyValue("inUseAfter", after.getDbSizeInUse())
                .log();
        return before;
    }

    /**
     * Records the new revision in the full-snapshot Lease. The snapshot is uploaded already, so a
     * failure (no client, no Lease, denied) is returned, never thrown: the caller decides what it
     * means for the run by {@link LeaseRenewalConfig#policy()}.
     */
    private SnapshotLeaseUpdater.Result renew(LeaseRenewalConfig lease, long revision) {
        try (KubernetesClient client = kubernetes.create()) {
            String namespace = lease.namespace().orElseGet(client::getNamespace);
            return new SnapshotLeaseUpdater(client, namespace, clock).renew(lease.leaseName(), revision);
        } catch (RuntimeException e) {
            return SnapshotLeaseUpdater.Result.failed("no Kubernetes client for the Lease: " + e);
        }
    }

    /** Removes what killed runs left in the scratch (and WAL) dir; a failure to do so does not fail a skip. */
    private void sweepDeadScratch() {
        Path root = config.rebuild().scratchDir();
        try {
            ScratchSweep.removeDead(root, config.rebuild().scratchWalDir());
        } catch (IOException e) {
            LOG.warn("cannot remove what interrupted runs left under {}: {}", root, e.toString());
        }
    }
}
