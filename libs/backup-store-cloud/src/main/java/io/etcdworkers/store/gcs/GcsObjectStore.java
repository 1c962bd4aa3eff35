package io.etcdworkers.store.gcs;

import com.google.api.gax.paging.Page;
import com.google.cloud.ReadChannel;
import com.google.cloud.WriteChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobField;
import com.google.cloud.storage.Storage.BlobListOption;
import com.google.cloud.storage.Storage.BlobSourceOption;
import com.google.cloud.storage.Storage.BlobWriteOption;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.store.cloud.LengthCheckedInputStream;
import io.etcdworkers.store.gcs.GcsErrorTranslator.Target;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link ObjectStore} over one Google Cloud Storage bucket (or an emulator of its JSON API),
 * through {@code google-cloud-storage} on its HTTP transport ({@link GcsClientFactory}). Listings
 * walk every page; a read is one streaming GET, ranged for {@link #openRange}
 * ({@link GcsReadStream}); writes are resumable uploads ({@link GcsResumableWriter}). Every SDK
 * failure, after the SDK's retries, becomes a {@link io.etcdworkers.contract.WorkerException}
 * (see {@link GcsErrorTranslator}) naming the bucket and the endpoint.
 *
 * <p>Objects are read as stored ({@code shouldReturnRawInputStream}): an object uploaded with a
 * gzip Content-Encoding is not unzipped on the way, so the bytes match the snapshot's hash.
 * Reads and listings may run concurrently (the SDK client is thread-safe); one writer is not.
 */
public final class GcsObjectStore implements ObjectStore {
    private static final Logger LOG = LoggerFactory.getLogger(GcsObjectStore.class);

    private final GcsStoreConfig config;
    private final Storage storage;
    private final GcsErrorTranslator errors;

    /**
     * Builds the SDK client and loads the credentials; no request is sent to the store until the
     * first call (the SDK's application default credentials may ask the metadata server).
     */
    public GcsObjectStore(GcsStoreConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.errors = new GcsErrorTranslator(describe());
        this.storage = GcsClientFactory.storage(config);
        LOG.info("{}: sending {}", describe(), config.credentials().describe());
    }

    @Override
    public String describe() {
        return "gcs bucket \"" + config.bucket() + "\" at " + config.endpoint();
    }

    @Override
    public List<ObjectInfo> list(String keyPrefix) {
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        List<ObjectInfo> result = new ArrayList<>();
        List<BlobListOption> options = new ArrayList<>(List.of(
                BlobListOption.pageSize(config.pageSize()),
                BlobListOption.fields(BlobField.NAME, BlobField.SIZE, BlobField.UPDATED, BlobField.METADATA)));
        if (!keyPrefix.isEmpty()) {
            options.add(BlobListOption.prefix(keyPrefix));
        }
        try {
            // By page, so that each page's request is retried on its own.
            for (Page<Blob> page = storage.list(config.bucket(), options.toArray(BlobListOption[]::new));
                    page != null;
                    page = page.hasNextPage() ? page.getNextPage() : null) {
                for (Blob blob : page.getValues()) {
                    result.add(new ObjectInfo(
                                    blob.getName(),
                                    blob.getSize() == null ? 0 : blob.getSize(),
                                    blob.getUpdateTimeOffsetDateTime() == null
                                            ? Instant.EPOCH
                                            : blob.getUpdateTimeOffsetDateTime().toInstant())
                            // etcdbrctl reads its exclude mark from the object's custom metadata
                            .excludedWhen(ObjectInfo.marked(blob.getMetadata()), "custom metadata"));
                }
            }
        } catch (RuntimeException e) {
            throw errors.translate(e, "listing \"" + keyPrefix + "\"", Target.BUCKET);
        }
        return result;
    }

    @Override
    public InputStream open(String key) {
        Objects.requireNonNull(key, "key");
        return read(key, "reading \"" + key + "\"", 0, -1);
    }

    @Override
    public InputStream openRange(String key, long offset, long length) {
        Objects.requireNonNull(key, "key");
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("negative range " + offset + "+" + length + " of " + key);
        }
        String action = "reading \"" + key + "\" at " + offset + "+" + length;
        if (length == 0) {
            // No GET reads zero bytes; still fail as a real read would if the object is gone.
            exists(key, action);
            return InputStream.nullInputStream();
        }
        return new LengthCheckedInputStream(
                read(key, action, offset, length),
                length,
                describe() + ": \"" + key + "\" at " + offset + "+" + length);
    }

    @Override
    public ObjectWriter create(String key) {
        Objects.requireNonNull(key, "key");
        BlobInfo info = BlobInfo.newBuilder(BlobId.of(config.bucket(), key))
                .setContentType("application/octet-stream")
                .build();
        WriteChannel channel;
        try {
            // Snapshots are compressed already (or, as etcd writes them, incompressible).
            channel = storage.writer(info, BlobWriteOption.disableGzipContent());
        } catch (RuntimeException e) {
            throw errors.translate(e, "starting the upload of \"" + key + "\"", Target.BUCKET);
        }
        channel.setChunkSize(config.chunkSize());
        return new GcsResumableWriter(storage, info.getBlobId(), channel, errors);
    }

    @Override
    public void close() {
        try {
            storage.close();
        } catch (Exception e) {
            // The HTTP transport holds no connections of its own beyond the JDK's keep-alive cache.
            LOG.debug("{}: closing the SDK client failed", describe(), e);
        }
    }

    /** A stream of the object from {@code offset}, to its end ({@code length} -1) or for {@code length} bytes. */
    private InputStream read(String key, String action, long offset, long length) {
        ReadChannel channel = null;
        try {
            channel =
                    storage.reader(BlobId.of(config.bucket(), key), BlobSourceOption.shouldReturnRawInputStream(true));
            if (offset > 0) {
                channel.seek(offset);
            }
            if (length >= 0) {
                channel = channel.limit(offset + length);
            }
        } catch (Exception e) {
            if (channel != null) {
                channel.close();
            }
            throw errors.translate(e, action, Target.OBJECT);
        }
        return new GcsReadStream(channel, errors, action).prime();
    }

    private void exists(String key, String action) {
        Blob blob;
        try {
            blob = storage.get(BlobId.of(config.bucket(), key), Storage.BlobGetOption.fields(BlobField.NAME));
        } catch (RuntimeException e) {
            throw errors.translate(e, action, Target.OBJECT);
        }
        if (blob == null) {
            throw errors.translateStatus(404, "notFound", null, action, Target.OBJECT, null);
        }
    }
}
