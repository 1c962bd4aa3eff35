package io.etcdworkers.store.swift;

import io.etcdworkers.store.StoreRetry;
import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a {@link SwiftObjectStore} needs: the container, how to log in, where the account
 * is, and how hard to try.
 *
 * @param container the Swift container
 * @param credentials the login ({@link SwiftCredentialsReader})
 * @param storageUrl {@code --store-endpoint-override}: the account URL
 *     ({@code https://host/v1/AUTH_<project>}) used instead of the one the login returns
 * @param region the catalog region whose {@code object-store} endpoint to take ({@code OS_REGION_NAME});
 *     empty takes the first public one, as gophercloud does
 * @param retry tries, backoff and the per-request timeout ({@link StoreRetry})
 * @param segmentSize bytes per segment of a large upload, and the largest object sent with one PUT
 * @param maxSegments segments one manifest may list (Swift's {@code max_manifest_segments}, 1,000 by default)
 * @param pageSize objects per listing request (Swift sends at most 10,000)
 */
public record SwiftStoreConfig(
        String container,
        SwiftCredentials credentials,
        Optional<URI> storageUrl,
        Optional<String> region,
        StoreRetry retry,
        int segmentSize,
        int maxSegments,
        int pageSize) {
    /** 16 MiB: 1,000 segments then hold 15.6 GiB, above etcd's 8 GiB quota; memory holds one. */
    public static final int DEFAULT_SEGMENT_SIZE = 16 * 1024 * 1024;

    public static final int DEFAULT_MAX_SEGMENTS = 1000;
    public static final int DEFAULT_PAGE_SIZE = 10_000;

    public SwiftStoreConfig {
        Objects.requireNonNull(container, "container");
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(storageUrl, "storageUrl");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(retry, "retry");
        if (container.isEmpty() || container.contains("/")) {
            throw new IllegalArgumentException("a Swift container name is not empty and has no '/': " + container);
        }
        if (segmentSize < 1 || maxSegments < 1 || pageSize < 1) {
            throw new IllegalArgumentException("segmentSize, maxSegments and pageSize must be positive");
        }
    }

    public SwiftStoreConfig withRetry(StoreRetry newRetry) {
        return new SwiftStoreConfig(
                container, credentials, storageUrl, region, newRetry, segmentSize, maxSegments, pageSize);
    }

    public SwiftStoreConfig withSegmentSize(int newSegmentSize) {
        return new SwiftStoreConfig(
                container, credentials, storageUrl, region, retry, newSegmentSize, maxSegments, pageSize);
    }

    public SwiftStoreConfig withPageSize(int newPageSize) {
        return new SwiftStoreConfig(
                container, credentials, storageUrl, region, retry, segmentSize, maxSegments, newPageSize);
    }

    public SwiftStoreConfig withContainer(String newContainer) {
        return new SwiftStoreConfig(
                newContainer, credentials, storageUrl, region, retry, segmentSize, maxSegments, pageSize);
    }
}
