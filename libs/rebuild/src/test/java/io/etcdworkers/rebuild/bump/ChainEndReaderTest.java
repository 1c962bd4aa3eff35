package io.etcdworkers.rebuild.bump;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.format.SnapshotName;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.store.ObjectInfo;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Which listed objects continue the chain from a base: by name only (their content is read later). */
@Timeout(10)
class ChainEndReaderTest {

    @Test
    void followsContiguousDeltasAndLaterFullSnapshots() {
        SnapshotObject base = object("Full-00000000-00000100-1000");
        List<SnapshotObject> listing = List.of(
                base,
                object("Incr-00000101-00000200-1001"),
                object("Incr-00000201-00000300-1002"),
                object("Full-00000000-00000310-1003"),
                object("Incr-00000311-00000400-1004"));

        assertThat(ChainEndReader.chain(listing, base)).containsExactlyElementsOf(listing);
    }

    @Test
    void leavesOutWhatDoesNotContinueIt() {
        SnapshotObject base = object("Full-00000000-00000100-1000");
        SnapshotObject older = object("Incr-00000050-00000090-999");
        SnapshotObject next = object("Incr-00000101-00000200-1001");
        SnapshotObject overlapping = object("Incr-00000150-00000250-1002");
        SnapshotObject gapped = object("Incr-00000300-999999999-1003");

        assertThat(ChainEndReader.chain(List.of(older, base, next, overlapping, gapped), base))
                .containsExactly(base, next, overlapping);
    }

    @Test
    void aNameAboveTheEndThatStartsInsideItContinuesItByName() {
        SnapshotObject base = object("Full-00000000-00000100-1000");
        SnapshotObject next = object("Incr-00000101-00000200-1001");
        SnapshotObject inflated = object("Incr-00000201-999999999-1002");

        assertThat(ChainEndReader.chain(List.of(base, next, inflated), base)).containsExactly(base, next, inflated);
    }

    private static SnapshotObject object(String name) {
        String key = "v2/" + name + ".gz";
        return new SnapshotObject(
                new ObjectInfo(key, 10, Instant.EPOCH),
                SnapshotName.parse(name + ".gz").orElseThrow());
    }
}
