package io.etcdworkers.store.s3;

import io.etcdworkers.store.ObjectInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.Tag;

/**
 * The listing of a versioned S3 bucket as etcd-backup-restore makes it: each key is its
 * <em>oldest</em> version (read by that version id); a key that also has a delete marker is
 * excluded when that oldest version's tags carry {@code x-etcd-snapshot-exclude=true} (a tag lookup
 * that fails leaves it listed). A key without a delete marker is listed whatever its tags: the
 * tags are never read for it. A deleted object is therefore still restored from until it is tagged.
 */
final class S3VersionedListing {
    /** One version of a key, as {@code ListObjectVersions} lists it. */
    record Version(String key, String versionId, Instant lastModified, long size) {}

    /** The tags of one version; a failure means "not excluded". */
    interface TagLookup {
        Map<String, String> tags(String key, String versionId);
    }

    private S3VersionedListing() {}

    /** Lists {@code prefix}'s versions and delete markers, page by page, and selects as etcdbrctl does. */
    static List<ObjectInfo> list(S3Client client, String bucket, String prefix) {
        List<Version> versions = new ArrayList<>();
        Set<String> deleted = new HashSet<>();
        ListObjectVersionsRequest request = ListObjectVersionsRequest.builder()
                .bucket(bucket)
                .prefix(prefix)
                .build();
        for (ListObjectVersionsResponse page : client.listObjectVersionsPaginator(request)) {
            for (ObjectVersion v : page.versions()) {
                versions.add(new Version(
                        v.key(),
                        v.versionId(),
                        v.lastModified() == null ? Instant.EPOCH : v.lastModified(),
                        v.size() == null ? 0 : v.size()));
            }
            for (DeleteMarkerEntry marker : page.deleteMarkers()) {
                deleted.add(marker.key());
            }
        }
        return select(versions, deleted, (key, versionId) -> {
            Map<String, String> tags = new LinkedHashMap<>();
            for (Tag tag : client.getObjectTagging(
                            b -> b.bucket(bucket).key(key).versionId(versionId))
                    .tagSet()) {
                tags.put(tag.key(), tag.value());
            }
            return tags;
        });
    }

    /** The oldest version of each key, in key order; those with a delete marker and the tag are marked excluded. */
    static List<ObjectInfo> select(List<Version> versions, Set<String> deleted, TagLookup lookup) {
        Map<String, Version> oldest = new LinkedHashMap<>();
        versions.stream()
                .sorted(Comparator.comparing(Version::key))
                .forEach(v ->
                        oldest.merge(v.key(), v, (a, b) -> b.lastModified().isBefore(a.lastModified()) ? b : a));
        List<ObjectInfo> result = new ArrayList<>();
        for (Version v : oldest.values()) {
            ObjectInfo info =
                    new ObjectInfo(v.key(), v.size(), v.lastModified(), Optional.empty(), Optional.of(v.versionId()));
            if (deleted.contains(v.key())) {
                info = info.excludedWhen(marked(lookup, v), "S3 object tag (oldest version " + v.versionId() + ")");
            }
            result.add(info);
        }
        return result;
    }

    private static boolean marked(TagLookup lookup, Version v) {
        try {
            return ObjectInfo.marked(lookup.tags(v.key(), v.versionId()));
        } catch (SdkException | IllegalStateException e) {
            return false; // etcdbrctl: a tag lookup that fails leaves the snapshot listed
        }
    }
}
