package io.etcdworkers.compaction.compact;

import io.etcd.jetcd.api.StatusResponse;
import io.etcdworkers.restore.error.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.etcd.EtcdBinaries;
import io.etcdworkers.restore.etcd.EtcdGrpcClient;
import io.etcdworkers.restore.files.FileTree;
import io.etcdworkers.restore.restore.RestoreOutcome;
import io.etcdworkers.restore.restore.RestoreService;
import io.etcdworkers.restore.snapshot.FullSnapshotReader;
import io.etcdworkers.restore.snapshot.FullSnapshotSummary;
import io.etcdworkers.restore.snapshot.SnapshotObject;
import io.etcdworkers.restore.snapshot.SnapshotSelection;
import io.etcdworkers.restore.snapshot.SnapshotStreams;
import io.etcdworkers.restore.snapshot.codec.Compression;
import io.etcdworkers.restore.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the latest full snapshot and its deltas into one new full snapshot: restore in a scratch
 * dir (the restore engine, same policy), compact at the last revision, defragment, stream
 * {@code Maintenance.Snapshot} to a file, verify its SHA-256 trailer, compress and upload it
 * so it sorts as the next base. Deletes nothing in the bucket.
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
            return CompactionOutcome.skipped(selection, skip.get());
        }
        EtcdBinaries binaries = EtcdBinaries.locate(config.restore().etcdBinDir(), config.restore().path());
        Compression compression = config.compression().orElseGet(() -> codecOfLast(selection));
        Path work = createWork();
        try {
            Path snapshot = work.resolve("snapshot.db");
            long[] sizes = new long[2];
            FullSnapshotSummary[] summary = new FullSnapshotSummary[1];
            RestoreOutcome restored = restorer.rebuild(binaries, selection, work.resolve("data"), (etcd, outcome) -> {
                long revision = outcome.replay().finalRevision();
                // the offline engine wrote a database compacted at this revision and without free pages
                boolean defragment = config.defragment() && !"offline".equals(outcome.engine());
                sizes[0] = compactAndDefragment(etcd.client(), revision, defragment).getDbSize();
                sizes[1] = etcd.client().status().getDbSize();
                summary[0] = snapshot(etcd.client(), snapshot);
            });
            UploadedSnapshot uploaded = new SnapshotUploader(store, config.restore().prefix()).upload(snapshot, summary[0],
                    restored.replay().finalRevision(), compression, selection.base().name().isFinal(), clock.instant());
            return new CompactionOutcome(selection, Optional.empty(), Optional.of(restored), sizes[0], sizes[1],
                    Optional.of(uploaded));
        } finally {
            try {
                FileTree.delete(work);
            } catch (IOException e) {
                LOG.warn("cannot remove the compaction scratch dir {}: {}", work, e.toString());
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

    private FullSnapshotSummary snapshot(EtcdGrpcClient client, Path file) {
        try (OutputStream out = Files.newOutputStream(file)) {
            long bytes = client.snapshot(out, config.snapshotTimeout());
            LOG.info("snapshot streamed bytes={}", bytes);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot write the snapshot to " + file + ": " + e.getMessage(), e);
        }
        try (InputStream in = Files.newInputStream(file)) {
            FullSnapshotSummary summary = FullSnapshotReader.copy("snapshot of the compacted etcd", in, null, false);
            if (!summary.hasHash()) {
                throw new WorkerException(ErrorCode.ETCD_FAILURE, "etcd's snapshot has no SHA-256 trailer");
            }
            return summary;
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot read back " + file + ": " + e.getMessage(), e);
        }
    }

    private Path createWork() {
        try {
            Files.createDirectories(config.restore().scratchDir());
            return Files.createTempDirectory(config.restore().scratchDir(), "compact-");
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot create a scratch dir under "
                    + config.restore().scratchDir() + ": " + e.getMessage(), e);
        }
    }
}
