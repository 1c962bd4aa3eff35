package io.etcdworkers.store;

import java.time.Instant;
import java.util.Objects;

/**
 * One object of a store listing.
 *
 * @param key full key relative to the container (for example {@code prefix/v2/Full-...})
 * @param size size in bytes as the store reports it
 * @param lastModified modification time as the store reports it (may be {@link Instant#EPOCH})
 */
public record ObjectInfo(String key, long size, Instant lastModified) {
    public ObjectInfo {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(lastModified, "lastModified");
        if (size < 0) {
            throw new IllegalArgumentException("negative size for " + key);
        }
    }
}
