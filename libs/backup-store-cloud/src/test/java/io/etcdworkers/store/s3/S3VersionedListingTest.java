package io.etcdworkers.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.s3.S3VersionedListing.Version;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * etcdbrctl's rule for a versioned S3 bucket, which no server of the tests keeps (S3Proxy has no
 * versioning): each key is its oldest version, and only a key with a delete marker is excluded,
 * by the tags of that oldest version; a failed tag lookup excludes nothing.
 */
class S3VersionedListingTest {
    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void theOldestVersionIsListedWithItsVersionId() {
        List<ObjectInfo> listed = S3VersionedListing.select(
                List.of(new Version("p/v2/a", "new", T.plusSeconds(60), 20), new Version("p/v2/a", "old", T, 10)),
                Set.of(),
                (k, v) -> {
                    throw new AssertionError("tags are never read for a key without a delete marker");
                });

        assertThat(listed).singleElement().satisfies(o -> {
            assertThat(o.versionId()).contains("old");
            assertThat(o.size()).isEqualTo(10);
            assertThat(o.excludedBy()).isEmpty();
        });
    }

    @Test
    void onlyADeletedKeyWhoseOldestVersionIsTaggedIsExcluded() {
        List<String> asked = new ArrayList<>();
        List<ObjectInfo> listed = S3VersionedListing.select(
                List.of(
                        new Version("p/v2/deleted-tagged", "v1", T, 1),
                        new Version("p/v2/deleted-tagged", "v2", T.plusSeconds(1), 1),
                        new Version("p/v2/deleted-untagged", "u1", T, 1),
                        new Version("p/v2/tagged-not-deleted", "t1", T, 1),
                        new Version("p/v2/deleted-True", "c1", T, 1)),
                Set.of("p/v2/deleted-tagged", "p/v2/deleted-untagged", "p/v2/deleted-True"),
                (k, v) -> {
                    asked.add(k + "@" + v);
                    return switch (k) {
                        case "p/v2/deleted-tagged" ->
                            v.equals("v1") ? Map.of(ObjectInfo.EXCLUDE_MARK, "true") : Map.of();
                        case "p/v2/deleted-True" -> Map.of(ObjectInfo.EXCLUDE_MARK, "True");
                        default -> Map.of(ObjectInfo.EXCLUDE_MARK, "true".substring(0, 0));
                    };
                });

        assertThat(listed)
                .filteredOn(o -> o.excludedBy().isPresent())
                .singleElement()
                .satisfies(o -> {
                    assertThat(o.key()).isEqualTo("p/v2/deleted-tagged");
                    assertThat(o.excludedBy())
                            .contains("S3 object tag (oldest version v1) x-etcd-snapshot-exclude=true");
                });
        assertThat(asked)
                .containsExactlyInAnyOrder(
                        "p/v2/deleted-tagged@v1", "p/v2/deleted-untagged@u1", "p/v2/deleted-True@c1");
        assertThat(listed).extracting(ObjectInfo::versionId).doesNotContain(Optional.empty());
    }

    @Test
    void aTagLookupThatFailsLeavesTheSnapshotListed() {
        List<ObjectInfo> listed =
                S3VersionedListing.select(List.of(new Version("p/v2/a", "v1", T, 1)), Set.of("p/v2/a"), (k, v) -> {
                    throw S3Exception.builder()
                            .statusCode(403)
                            .message("denied")
                            .build();
                });

        assertThat(listed)
                .singleElement()
                .satisfies(o -> assertThat(o.excludedBy()).isEmpty());
    }
}
