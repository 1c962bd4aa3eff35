package io.etcdworkers.store.s3;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.store.cloud.LengthCheckedInputStream;
import java.io.InputStream;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * An {@link ObjectStore} over an S3 bucket (AWS or an S3-compatible server), with the SDK's
 * sync client on the Apache HTTP client. Reads stream and check their length; writes are
 * {@link S3MultipartWriter}s. Every SDK failure, after the SDK's retries, becomes a
 * {@link WorkerException} (see {@link S3ErrorTranslator}).
 *
 * <p>Not thread-safe for one writer; reads and listings may run concurrently (the SDK client is).
 */
public final class S3ObjectStore implements ObjectStore {
    private final S3StoreConfig config;
    private final SdkHttpClient httpClient;
    private final S3Client client;
    private final S3ErrorTranslator errors;

    /** Builds the SDK clients; no request is sent until the first call. */
    public S3ObjectStore(S3StoreConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.httpClient = S3ClientFactory.httpClient(config.tls(), config.retry());
        this.client = S3ClientFactory.s3Client(config, httpClient);
        this.errors = new S3ErrorTranslator(describe());
    }

    /** The version each key of a versioned bucket's last listing is read at (etcdbrctl reads the oldest). */
    private final Map<String, String> versions = new ConcurrentHashMap<>();

    @Override
    public String describe() {
        return config.provider() + " bucket \"" + config.bucket() + "\" "
                + config.endpointOverride()
                        .map(URI::toString)
                        .map(e -> "at " + e)
                        .orElse("in region " + config.region());
    }

    /**
     * On a versioned bucket, etcdbrctl's listing ({@link S3VersionedListing}: each key's oldest
     * version, read by its version id from then on, and the exclude mark of deleted keys); else
     * every object as it is.
     */
    @Override
    public List<ObjectInfo> list(String keyPrefix) {
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        if (versioned()) {
            try {
                List<ObjectInfo> listed = S3VersionedListing.list(client, config.bucket(), keyPrefix);
                listed.forEach(i -> i.versionId().ifPresent(v -> versions.put(i.key(), v)));
                return listed;
            } catch (SdkException e) {
                throw errors.translate(e, "listing the versions of \"" + keyPrefix + "\"");
            }
        }
        List<ObjectInfo> result = new ArrayList<>();
        try {
            ListObjectsV2Request request = ListObjectsV2Request.builder()
                    .bucket(config.bucket())
                    .prefix(keyPrefix)
                    .build();
            for (S3Object o : client.listObjectsV2Paginator(request).contents()) {
                result.add(new ObjectInfo(
                        o.key(),
                        o.size() == null ? 0 : o.size(),
                        o.lastModified() == null ? Instant.EPOCH : o.lastModified()));
            }
        } catch (SdkException e) {
            throw errors.translate(e, "listing \"" + keyPrefix + "\"");
        }
        return result;
    }

    @Override
    public InputStream open(String key) {
        ResponseInputStream<GetObjectResponse> body = get(key, Optional.empty());
        Long length = body.response().contentLength();
        if (length == null) {
            body.abort();
            throw new WorkerException(
                    ErrorCode.STORE_UNAVAILABLE,
                    describe() + ": reading \"" + key
                            + "\" failed: the store sent no Content-Length, so a cut-short body would go unnoticed");
        }
        return new LengthCheckedInputStream(body, length, describe() + ": \"" + key + "\"");
    }

    @Override
    public InputStream openRange(String key, long offset, long length) {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("negative range " + offset + "+" + length + " of " + key);
        }
        if (length == 0) {
            // "bytes=a-(a-1)" is no valid range; still fail as a real read would if the key is gone.
            head(key);
            return InputStream.nullInputStream();
        }
        String range = "bytes " + offset + "-" + (offset + length - 1) + "/";
        ResponseInputStream<GetObjectResponse> body =
                get(key, Optional.of("bytes=" + offset + "-" + (offset + length - 1)));
        String contentRange = body.response().contentRange();
        if (contentRange == null || !contentRange.startsWith(range)) {
            // A short range (object smaller than offset+length) or a server that ignored the
            // Range header and sent the whole object: either way not the bytes asked for.
            body.abort();
            long size = totalSize(contentRange).orElse(-1L);
            if (size >= 0 && size < offset + length) {
                throw new WorkerException(
                        ErrorCode.TRUNCATED_OBJECT,
                        describe() + ": \"" + key + "\" has " + size + " bytes, fewer than the " + (offset + length)
                                + " asked for");
            }
            throw new WorkerException(
                    ErrorCode.STORE_UNAVAILABLE,
                    describe() + ": reading \"" + key + "\" at " + offset + "+" + length + " got Content-Range "
                            + contentRange);
        }
        return new LengthCheckedInputStream(body, length, describe() + ": \"" + key + "\" at " + offset + "+" + length);
    }

    @Override
    public ObjectWriter create(String key) {
        Objects.requireNonNull(key, "key");
        return new S3MultipartWriter(client, config.bucket(), key, config.sseCustomerKey(), config.partSize(), errors);
    }

    @Override
    public void close() {
        // The SDK closes neither an HTTP client nor a credentials provider that it was given.
        client.close();
        httpClient.close();
        if (config.credentials() instanceof SdkAutoCloseable closeable) {
            closeable.close();
        }
    }

    /**
     * Whether the bucket's versioning is {@code Enabled} (never for OSS). A server that does not implement the call
     * (S3Proxy answers 501) has no versioning; any other failure fails the listing, as it fails
     * etcdbrctl's.
     */
    private boolean versioned() {
        if (config.provider().equals("OSS")) {
            return false; // etcdbrctl reads OSS with its own SDK: current objects, no exclude mark
        }
        try {
            return client.getBucketVersioning(b -> b.bucket(config.bucket())).status()
                    == BucketVersioningStatus.ENABLED;
        } catch (S3Exception e) {
            if (e.statusCode() == 501) {
                return false;
            }
            throw errors.translate(e, "reading the bucket's versioning");
        } catch (SdkException e) {
            throw errors.translate(e, "reading the bucket's versioning");
        }
    }

    private ResponseInputStream<GetObjectResponse> get(String key, Optional<String> range) {
        Optional<SseCustomerKey> sse = config.sseCustomerKey();
        GetObjectRequest request = GetObjectRequest.builder()
                .bucket(config.bucket())
                .key(key)
                .versionId(versions.get(key))
                .range(range.orElse(null))
                .sseCustomerAlgorithm(sse.map(SseCustomerKey::algorithm).orElse(null))
                .sseCustomerKey(sse.map(SseCustomerKey::keyBase64).orElse(null))
                .sseCustomerKeyMD5(sse.map(SseCustomerKey::keyMd5Base64).orElse(null))
                .build();
        try {
            return client.getObject(request);
        } catch (SdkException e) {
            throw errors.translate(e, "reading \"" + key + "\"");
        }
    }

    private void head(String key) {
        Optional<SseCustomerKey> sse = config.sseCustomerKey();
        try {
            client.headObject(b -> b.bucket(config.bucket())
                    .key(key)
                    .sseCustomerAlgorithm(sse.map(SseCustomerKey::algorithm).orElse(null))
                    .sseCustomerKey(sse.map(SseCustomerKey::keyBase64).orElse(null))
                    .sseCustomerKeyMD5(sse.map(SseCustomerKey::keyMd5Base64).orElse(null)));
        } catch (SdkException e) {
            throw errors.translate(e, "reading \"" + key + "\"");
        }
    }

    /** The total size from a {@code bytes a-b/total} Content-Range, if it says. */
    private static Optional<Long> totalSize(String contentRange) {
        if (contentRange == null || contentRange.indexOf('/') < 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(
                    contentRange.substring(contentRange.indexOf('/') + 1).trim()));
        } catch (NumberFormatException e) {
            // "*" (unknown total) and anything else unparseable: the caller reports the raw header.
            return Optional.empty();
        }
    }
}
