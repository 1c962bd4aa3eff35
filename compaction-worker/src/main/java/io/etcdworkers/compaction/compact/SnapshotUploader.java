package io.etcdworkers.compaction.compact;

import io.etcdworkers.restore.error.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.snapshot.FullSnapshotSummary;
import io.etcdworkers.restore.snapshot.SnapshotCatalog;
import io.etcdworkers.restore.snapshot.SnapshotKind;
import io.etcdworkers.restore.snapshot.SnapshotName;
import io.etcdworkers.restore.snapshot.codec.Compression;
import io.etcdworkers.restore.store.ObjectInfo;
import io.etcdworkers.restore.store.ObjectStore;
import io.etcdworkers.restore.store.ObjectWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Uploads a verified full snapshot (database + SHA-256 trailer) as
 * {@code <prefix>/v2/Full-00000000-<revision>-<now><suffix>[.final]}, compressed on the way,
 * through the store's writer: nothing is visible under the name until the upload is complete,
 * and a failed upload is aborted. Then checks that the listing shows it with the written size.
 */
public final class SnapshotUploader {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotUploader.class);

    private final ObjectStore store;
    private final String prefix;

    public SnapshotUploader(ObjectStore store, String prefix) {
        this.store = store;
        this.prefix = SnapshotCatalog.normalizePrefix(prefix);
    }

    public UploadedSnapshot upload(Path snapshot, FullSnapshotSummary summary, long revision, Compression compression,
            boolean isFinal, Instant now) {
        SnapshotName name = SnapshotName.of(SnapshotKind.FULL, 0, revision, now.truncatedTo(ChronoUnit.SECONDS),
                compression, isFinal);
        String key = prefix + "v2/" + name.format();
        LOG.info("uploading snapshot={} databaseBytes={} compression={}", key, summary.databaseBytes(),
                compression.policyName());
        ObjectInfo written;
        try (ObjectWriter writer = store.create(key)) {
            try (InputStream in = Files.newInputStream(snapshot);
                    OutputStream out = compression.compress(writer.out())) {
                in.transferTo(out);
            } catch (IOException e) {
                throw new WorkerException(ErrorCode.LOCAL_IO, "cannot read " + snapshot + " for the upload of " + key
                        + ": " + e.getMessage(), e);
            }
            written = writer.commit();
        }
        // list by the object's own key: the whole v2/ folder can hold thousands of snapshots
        ObjectInfo listed = store.list(key).stream().filter(o -> o.key().equals(key)).findFirst()
                .orElseThrow(() -> new WorkerException(ErrorCode.STORE_UNAVAILABLE,
                        "uploaded " + key + " but " + store.describe() + " does not list it"));
        if (listed.size() != written.size()) {
            throw new WorkerException(ErrorCode.STORE_UNAVAILABLE, "uploaded " + key + " with " + written.size()
                    + " bytes but " + store.describe() + " lists " + listed.size());
        }
        LOG.info("uploaded snapshot={} size={}", key, listed.size());
        return new UploadedSnapshot(key, listed.size(), compression, summary.databaseBytes(), summary.sha256());
    }
}
