package io.etcdworkers.compaction.compact;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.FullSnapshotReader;
import io.etcdworkers.format.FullSnapshotSummary;
import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.format.SnapshotKind;
import io.etcdworkers.format.SnapshotName;
import io.etcdworkers.format.codec.Compression;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.store.ObjectWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Uploads a full snapshot (database + SHA-256 trailer) as
 * {@code <prefix>/v2/Full-00000000-<revision>-<now><suffix>[.final]}, compressed on the way,
 * through the store's writer: nothing is visible under the name until the upload is committed,
 * and an upload that is not committed is aborted. Then checks that the listing shows it with
 * the written size.
 *
 * <p>{@link #start} lets the compression and transfer run in the background while the caller
 * still verifies the database; only {@link Pending#commit} makes it visible.
 */
public final class SnapshotUploader {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotUploader.class);
    private static final long STOP_WAIT_SECONDS = 60;

    private final ObjectStore store;
    private final String prefix;

    public SnapshotUploader(ObjectStore store, String prefix) {
        this.store = store;
        this.prefix = SnapshotCatalog.normalizePrefix(prefix);
    }

    /** Uploads and commits {@code snapshot} now. */
    public UploadedSnapshot upload(Path snapshot, long revision, Compression compression, boolean isFinal, Instant now)
            throws InterruptedException {
        try (Pending pending = start(snapshot, revision, compression, isFinal, now, Runnable::run)) {
            return pending.commit();
        }
    }

    /**
     * Starts checking the snapshot's trailer and writing it, compressed, on {@code executor}.
     * The caller must {@link Pending#commit} or close the result.
     */
    public Pending start(
            Path snapshot, long revision, Compression compression, boolean isFinal, Instant now, Executor executor) {
        SnapshotName name = SnapshotName.of(
                SnapshotKind.FULL, 0, revision, now.truncatedTo(ChronoUnit.SECONDS), compression, isFinal);
        String key = prefix + "v2/" + name.format();
        ObjectWriter writer = store.create(key);
        CountDownLatch stopped = new CountDownLatch(1);
        FutureTask<FullSnapshotSummary> task = new FutureTask<>(() -> write(snapshot, key, compression, writer));
        executor.execute(() -> {
            try {
                task.run(); // returns at once when cancelled before it started
            } finally {
                stopped.countDown();
            }
        });
        return new Pending(key, compression, writer, task, stopped);
    }

    private static FullSnapshotSummary write(Path snapshot, String key, Compression compression, ObjectWriter writer) {
        FullSnapshotSummary summary;
        try (InputStream in = Files.newInputStream(snapshot)) {
            summary = FullSnapshotReader.copy("snapshot " + snapshot, in, null, false);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot read " + snapshot + ": " + e.getMessage(), e);
        }
        if (!summary.hasHash()) {
            throw new WorkerException(ErrorCode.ETCD_FAILURE, snapshot + " has no SHA-256 trailer");
        }
        LOG.atInfo()
                .setMessage("uploading")
                .addKeyValue("snapshot", key)
                .addKeyValue("databaseBytes", summary.databaseBytes())
                .addKeyValue("compression", compression.policyName())
                .log();
        try (InputStream in = Files.newInputStream(snapshot);
                OutputStream out = compression.compress(writer.out())) {
            in.transferTo(out);
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot read " + snapshot + " for the upload of " + key + ": " + e.getMessage(),
                    e);
        }
        return summary;
    }

    /** An upload written (or being written) but not yet visible. */
    public final class Pending implements AutoCloseable {
        private final String key;
        private final Compression compression;
        private final ObjectWriter writer;
        private final FutureTask<FullSnapshotSummary> task;
        private final CountDownLatch stopped;

        private Pending(
                String key,
                Compression compression,
                ObjectWriter writer,
                FutureTask<FullSnapshotSummary> task,
                CountDownLatch stopped) {
            this.key = key;
            this.compression = compression;
            this.writer = writer;
            this.task = task;
            this.stopped = stopped;
        }

        /** Waits for the bytes, commits, and checks the listing. */
        public UploadedSnapshot commit() throws InterruptedException {
            FullSnapshotSummary summary;
            try {
                summary = task.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof WorkerException we) {
                    throw we;
                }
                throw new WorkerException(
                        ErrorCode.UNEXPECTED, "uploading " + key + " failed: " + e.getCause(), e.getCause());
            }
            ObjectInfo written = writer.commit();
            // list by the object's own key: the whole v2/ folder can hold thousands of snapshots
            ObjectInfo listed = store.list(key).stream()
                    .filter(o -> o.key().equals(key))
                    .findFirst()
                    .orElseThrow(() -> new WorkerException(
                            ErrorCode.STORE_UNAVAILABLE,
                            "uploaded " + key + " but " + store.describe() + " does not list it"));
            if (listed.size() != written.size()) {
                throw new WorkerException(
                        ErrorCode.STORE_UNAVAILABLE,
                        "uploaded " + key + " with " + written.size() + " bytes but " + store.describe() + " lists "
                                + listed.size());
            }
            LOG.atInfo()
                    .setMessage("uploaded")
                    .addKeyValue("snapshot", key)
                    .addKeyValue("bytes", listed.size())
                    .log();
            return new UploadedSnapshot(key, listed.size(), compression, summary.databaseBytes(), summary.sha256());
        }

        /** Aborts unless committed: stops the writing first, so the abort is the last call on the writer. */
        @Override
        public void close() {
            if (!task.isDone()) {
                task.cancel(true);
                try {
                    if (!stopped.await(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
                        LOG.warn(
                                "the upload of {} did not stop within {}s; aborting it anyway", key, STOP_WAIT_SECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            writer.close();
        }
    }
}
