package io.etcdworkers.store.gcs;

import io.etcdworkers.store.StoreRetry;
import java.net.URI;
import java.util.Objects;

/**
 * Everything a {@link GcsObjectStore} needs: the bucket, the JSON API's root, the identity to
 * send and how hard to try.
 *
 * @param bucket the bucket name
 * @param endpoint the API root the SDK puts {@code /storage/v1/...} and {@code /upload/storage/v1/...}
 *     under: {@value #DEFAULT_ENDPOINT}, or an override such as {@code http://127.0.0.1:9199}
 * @param credentials what identity is sent
 * @param retry tries, backoff and the per-request timeout ({@link StoreRetry})
 * @param chunkSize bytes a resumable upload buffers and sends per request (a multiple of 256 KiB)
 * @param pageSize objects per listing request (GCS sends at most 1,000)
 */
public record GcsStoreConfig(
        String bucket, URI endpoint, GcsCredentials credentials, StoreRetry retry, int chunkSize, int pageSize) {
    public static final String DEFAULT_ENDPOINT = "https://storage.googleapis.com";
    /** GCS takes resumable upload chunks in multiples of this (the last one excepted). */
    public static final int CHUNK_GRANULARITY = 256 * 1024;
    /** 16 MiB: the SDK's own default; memory holds one chunk per upload. */
    public static final int DEFAULT_CHUNK_SIZE = 16 * 1024 * 1024;

    public static final int DEFAULT_PAGE_SIZE = 1000;

    public GcsStoreConfig {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(retry, "retry");
        if (chunkSize < CHUNK_GRANULARITY || chunkSize % CHUNK_GRANULARITY != 0) {
            throw new IllegalArgumentException("chunkSize must be a positive multiple of 256 KiB: " + chunkSize);
        }
        if (pageSize < 1) {
            throw new IllegalArgumentException("pageSize must be positive: " + pageSize);
        }
    }

    public GcsStoreConfig withRetry(StoreRetry newRetry) {
        return new GcsStoreConfig(bucket, endpoint, credentials, newRetry, chunkSize, pageSize);
    }

    public GcsStoreConfig withChunkSize(int newChunkSize) {
        return new GcsStoreConfig(bucket, endpoint, credentials, retry, newChunkSize, pageSize);
    }

    public GcsStoreConfig withPageSize(int newPageSize) {
        return new GcsStoreConfig(bucket, endpoint, credentials, retry, chunkSize, newPageSize);
    }
}
