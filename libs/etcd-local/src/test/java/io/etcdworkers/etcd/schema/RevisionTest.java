package io.etcdworkers.etcd.schema;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The revision key as etcd writes it ({@code mvcc/revision.go}: {@code revToBytes}, {@code
 * bytesToRev}, the tombstone mark), the bytes written out by hand here, and the key bucket's order.
 */
@Timeout(10)
class RevisionTest {
    private static final HexFormat HEX = HexFormat.of();

    @ParameterizedTest(name = "{0}_{1}")
    @CsvSource({
        "1, 0, 00000000000000015f0000000000000000",
        "3656, 2, 0000000000000e485f0000000000000002",
        "72057594037927936, 255, 01000000000000005f00000000000000ff"
    })
    void encodesMainSeparatorSubBigEndian(long main, long sub, String hex) {
        Revision revision = new Revision(main, sub);

        assertThat(HEX.formatHex(revision.bytes())).isEqualTo(hex);
        assertThat(HEX.formatHex(revision.tombstoneBytes())).isEqualTo(hex + "74");
        assertThat(Revision.parse(HEX.parseHex(hex))).contains(revision);
        assertThat(Revision.parse(HEX.parseHex(hex + "74"))).contains(revision);
        assertThat(Revision.isTombstone(revision.bytes())).isFalse();
        assertThat(Revision.isTombstone(revision.tombstoneBytes())).isTrue();
        assertThat(revision).hasToString(main + "_" + sub);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "'', nothing",
        "00000000000000015f00000000000000, 16 bytes",
        "00000000000000012d0000000000000000, another separator",
        "00000000000000015f000000000000000000, an 18th byte that is no mark",
        "00000000000000015f000000000000000074ff, 19 bytes"
    })
    void parseRefusesWhatIsNoRevisionKey(String hex, String what) {
        assertThat(Revision.parse(HEX.parseHex(hex))).as(what).isEmpty();
    }

    @Test
    void fromBytesReadsAsEtcdDoesWithoutChecking() {
        byte[] key = HEX.parseHex("00000000000000072d0000000000000009");

        assertThat(Revision.fromBytes(key)).isEqualTo(new Revision(7, 9));
    }

    @Test
    void ordersAsTheKeyBucketSortsItsKeys() {
        List<Revision> revisions = new ArrayList<>(List.of(
                new Revision(2, 0),
                new Revision(1, 5),
                new Revision(1, 0),
                new Revision(300, 1),
                new Revision(256, 0)));

        revisions.sort(null);

        assertThat(revisions)
                .containsExactly(
                        new Revision(1, 0),
                        new Revision(1, 5),
                        new Revision(2, 0),
                        new Revision(256, 0),
                        new Revision(300, 1));
        List<byte[]> keys =
                new ArrayList<>(revisions.stream().map(Revision::bytes).toList());
        keys.sort(Arrays::compareUnsigned);
        assertThat(keys.stream().map(Revision::fromBytes)).containsExactlyElementsOf(revisions);
        assertThat(Revision.compare(1, 2, 1, 3)).isNegative();
        assertThat(Revision.compare(2, 0, 1, 3)).isPositive();
        assertThat(Revision.compare(4, 4, 4, 4)).isZero();
    }

    @Test
    void namesTheBucketsAndMetaKeysAsEtcdDoes() {
        assertThat(Bucket.KEY.bytes()).asString().isEqualTo("key");
        assertThat(Bucket.META.bytes()).asString().isEqualTo("meta");
        assertThat(Bucket.LEASE.bytes()).asString().isEqualTo("lease");
        assertThat(Bucket.KEY.is("key".getBytes(US_ASCII))).isTrue();
        assertThat(Bucket.KEY.is("meta".getBytes(US_ASCII))).isFalse();
        assertThat(MetaKey.FINISHED_COMPACT_REV.bytes()).asString().isEqualTo("finishedCompactRev");
        assertThat(MetaKey.SCHEDULED_COMPACT_REV.bytes()).asString().isEqualTo("scheduledCompactRev");
    }
}
