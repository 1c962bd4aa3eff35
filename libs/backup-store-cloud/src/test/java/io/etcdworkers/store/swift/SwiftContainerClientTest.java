package io.etcdworkers.store.swift;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The pure parts of the Swift client: names in URLs, and the listing's times. */
class SwiftContainerClientTest {

    @Test
    void keysKeepTheirSlashesAndEverythingElseIsPercentEncoded() {
        assertThat(SwiftContainerClient.SwiftPaths.path("p/v2/Full-0-1-2.gz")).isEqualTo("p/v2/Full-0-1-2.gz");
        assertThat(SwiftContainerClient.SwiftPaths.path("a b/ü+%?#")).isEqualTo("a%20b/%C3%BC%2B%25%3F%23");
        assertThat(SwiftContainerClient.SwiftPaths.query("p/v2/")).isEqualTo("p%2Fv2%2F");
    }

    @Test
    void aListingTimeIsUtcWithMicrosecondsAndAnUnreadableOneIsTheEpoch() {
        assertThat(SwiftContainerClient.listingTime("2026-12-01T16:30:05.123450"))
                .isEqualTo(Instant.parse("2026-12-01T16:30:05.123450Z"));
        assertThat(SwiftContainerClient.listingTime("2026-12-01T16:30:05"))
                .isEqualTo(Instant.parse("2026-12-01T16:30:05Z"));
        assertThat(SwiftContainerClient.listingTime("yesterday")).isEqualTo(Instant.EPOCH);
    }
}
