package io.etcdworkers.store;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One object of a store listing.
 *
 * @param key full key relative to the container (for example {@code prefix/v2/Full-...})
 * @param size size in bytes as the store reports it
 * @param lastModified modification time as the store reports it (may be {@link Instant#EPOCH})
 * @param excludedBy where the store keeps etcd-backup-restore's exclude mark ({@value
 *     #EXCLUDE_MARK}{@code =true}) for this object, for messages (e.g. {@code "blob index tag
 *     x-etcd-snapshot-exclude=true"}); empty when it carries none or the store does not keep the
 *     mark (Swift, OSS, a directory: etcdbrctl reads it there neither). A snapshot so marked is
 *     left out of restores, as etcdbrctl leaves it out
 * @param versionId the version a read of this object must name (S3 versioned buckets, where
 *     etcdbrctl reads a key's oldest version); empty for the current object
 */
public record ObjectInfo(
        String key, long size, Instant lastModified, Optional<String> excludedBy, Optional<String> versionId) {
    /** The tag or metadata key etcd-backup-restore's exclude mark has; its value must be exactly {@code true}. */
    public static final String EXCLUDE_MARK = "x-etcd-snapshot-exclude";

    public ObjectInfo {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(lastModified, "lastModified");
        Objects.requireNonNull(excludedBy, "excludedBy");
        Objects.requireNonNull(versionId, "versionId");
        if (size < 0) {
            throw new IllegalArgumentException("negative size for " + key);
        }
    }

    /** An object without an exclude mark, read as it is now. */
    public ObjectInfo(String key, long size, Instant lastModified) {
        this(key, size, lastModified, Optional.empty(), Optional.empty());
    }

    /**
     * Whether tags or metadata carry the mark as etcdbrctl reads it: the key exactly {@value
     * #EXCLUDE_MARK}, the value exactly {@code true} (no other case, no spaces).
     */
    public static boolean marked(Map<String, String> tagsOrMetadata) {
        return tagsOrMetadata != null && "true".equals(tagsOrMetadata.get(EXCLUDE_MARK));
    }

    /** This entry with the mark found at {@code where}, when {@code marked}. */
    public ObjectInfo excludedWhen(boolean marked, String where) {
        return marked
                ? new ObjectInfo(key, size, lastModified, Optional.of(where + " " + EXCLUDE_MARK + "=true"), versionId)
                : this;
    }
}
