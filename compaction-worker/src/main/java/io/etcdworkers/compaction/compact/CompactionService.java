package io.etcdworkers.compaction.compact;

import io.etcd.jetcd.api.StatusResponse;
import io.etcdworkers.restore.error.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.etcd.EtcdBinaries;
import io.etcdworkers.restore.etcd.EtcdGrpcClient;
import io.etcdworkers.restore.etcd.MaintenanceSnapshot;
import io.etcdworkers.restore.files.FileTree;
import io.etcdworkers.restore.files.ScratchDir;
import io.etcdworkers.restore.replay.ScratchEtcd;
import io.etcdworkers.restore.restore.RestoreOutcome;
import io.etcdworkers.restore.restore.RestoreService;
import io.etcdworkers.restore.snapshot.SnapshotObject;
import io.etcdworkers.restore.snapshot.SnapshotSelection;
import io.etcdworkers.restore.snapshot.SnapshotStreams;
import io.etcdworkers.restore.snapshot.codec.Compression;
import io.etcdworkers.restore.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the latest full snapshot and its deltas into one new full snapshot that sorts as the next
 * base. With the offline engine: the database it writes is uploaded (compressed) while a real
 * etcd verifies it, and committed only once verified. With the replay: restore in a scratch dir
 * (same policy), compact at the last revision, defragment, stream {@code Maintenance.Snapshot}
 * to a file, verify its SHA-256 trailer, compress and upload it. Deletes nothing in the bucket.
 */
public final class CompactionService {
    private static final Logger LOG = LoggerFactory.getLogger(CompactionService.class);

    private final ObjectStore store;
    private final CompactionConfig config;
    private final Clock clock;

    public CompactionService(ObjectStore store, CompactionConfig config, Clock clock) {
        this.store = store;
        this.config = config;
        this.clock = clock;
    }

    public CompactionOutcome compact() throws InterruptedException {
        RestoreService restorer = new RestoreService(store, config.restore(), clock);
        SnapshotSelection selection = restorer.plan();
        Optional<String> skip = config.thresholds().skipReason(selection);
        if (skip.isPresent()) {
            LOG.info("compaction skipped: {}", skip.get());
            // a run killed after it committed leaves its scratch dir, and the next run skips:
            // no scratch dir is created here, so the sweep that creating one does must run anyway
            sweepDeadScratch();
            return CompactionOutcome.skipped(selection, skip.get());
        }
        EtcdBinaries binaries = EtcdBinaries.locate(config.restore().etcdBinDir(), config.restore().path());
        Compression compression = config.compression().orElseGet(() -> codecOfLast(selection));
        ScratchDir workDir = createWork();
        Path work = workDir.path();
        ExecutorService background = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "snapshot-upload");
            t.setDaemon(true);
            return t;
        });
        SnapshotUploader uploader = new SnapshotUploader(store, config.restore().prefix());
        boolean isFinal = selection.base().name().isFinal();
        try (Steps steps = new Steps(uploader, compression, isFinal, work.resolve("snapshot.db"), background)) {
            // nothing placed: the verified etcd is snapshotted while it runs (replay) or its database uploaded (offline)
            RestoreOutcome restored = restorer.rebuild(binaries, selection, Optional.empty(), steps);
            if (steps.uploaded == null) {
                // the replay's snapshot: uploaded once etcd is stopped, so the two do not add up in memory
                steps.uploaded = uploader.upload(steps.snapshotFile, restored.replay().finalRevision(), compression,
                        isFinal, clock.instant());
            }
            return new CompactionOutcome(selection, Optional.empty(), Optional.of(restored), steps.sizeBefore,
                    steps.sizeAfter, Optional.of(steps.uploaded));
        } finally {
            background.shutdownNow();
            try {
                workDir.close();
            } catch (IOException e) {
                LOG.warn("cannot remove the compaction scratch dir {}: {}", work, e.toString());
            }
        }
    }

    /**
     * What the compaction does with the rebuilt database. The offline engine's database starts
     * uploading as soon as it is written, while etcd still verifies it, and the upload is committed
     * only once the verification passed; a database the replay built is compacted, defragmented
     * and streamed out of etcd into a file, uploaded after etcd stopped. Anything not committed is
     * aborted on close.
     */
    private final class Steps implements RestoreService.WhileRunning, AutoCloseable {
        private final SnapshotUploader uploader;
        private final Compression compression;
        private final boolean isFinal;
        private final Path snapshotFile;
        private final ExecutorService background;
        private SnapshotUploader.Pending offlineUpload;
        private long sizeBefore;
        private long sizeAfter;
        private UploadedSnapshot uploaded;

        Steps(SnapshotUploader uploader, Compression compression, boolean isFinal, Path snapshotFile,
                ExecutorService background) {
            this.uploader = uploader;
            this.compression = compression;
            this.isFinal = isFinal;
            this.snapshotFile = snapshotFile;
            this.background = background;
        }

        @Override
        public void offlineDatabase(Path database, long revision) {
            offlineUpload = uploader.start(database, revision, compression, isFinal, clock.instant(), background);
        }

        @Override
        public void accept(ScratchEtcd etcd, RestoreOutcome outcome) throws InterruptedException {
            long revision = outcome.replay().finalRevision();
            boolean offline = "offline".equals(outcome.engine());
            // the offline engine wrote a database compacted at this revision and without free pages
            sizeBefore = compactAndDefragment(etcd.client(), revision, config.defragment() && !offline).getDbSize();
            sizeAfter = etcd.client().status().getDbSize();
            if (offline) {
                uploaded = offlineUpload.commit();
                return;
            }
            if (offlineUpload != null) {
                // the offline engine was refused and the replay took over: its database must not land
                offlineUpload.close();
                offlineUpload = null;
            }
            MaintenanceSnapshot.save(etcd.client(), snapshotFile, config.snapshotTimeout());
        }

        @Override
        public void close() {
            if (offlineUpload != null) {
                offlineUpload.close();
            }
        }
    }

    /** The last delta's codec, as etcd-backup-restore picks it; the base's when the suffix is unknown. */
    static Compression codecOfLast(SnapshotSelection selection) {
        SnapshotObject last = selection.deltas().isEmpty() ? selection.base()
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
        client.compact(revision, config.restore().replay().defragTimeout());
        StatusResponse before = client.status();
        if (defragment) {
            client.defragment(config.restore().replay().defragTimeout());
        }
        StatusResponse after = client.status();
        LOG.info("final compaction revision={} defragmented={} dbSizeBefore={} dbSizeAfter={} inUseAfter={}",
                revision, defragment, before.getDbSize(), after.getDbSize(), after.getDbSizeInUse());
        return before;
    }

    /** The compaction's own scratch dir, locked like the restore's (which also clears dead runs' dirs). */
    /** Removes what killed runs left in the scratch (and WAL) dir; a failure to do so does not fail a skip. */
    private void sweepDeadScratch() {
        Path root = config.restore().scratchDir();
        try {
            ScratchDir.removeDead(root, root, "");
            if (config.restore().scratchWalDir().isPresent()) {
                ScratchDir.removeDead(config.restore().scratchWalDir().get(), root, ScratchDir.WAL_SUFFIX);
            }
        } catch (IOException e) {
            LOG.warn("cannot remove what interrupted runs left under {}: {}", root, e.toString());
        }
    }

    private ScratchDir createWork() {
        try {
            return ScratchDir.create(config.restore().scratchDir(), "compact-");
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot create a scratch dir under "
                    + config.restore().scratchDir() + ": " + e.getMessage(), e);
        }
    }
}
