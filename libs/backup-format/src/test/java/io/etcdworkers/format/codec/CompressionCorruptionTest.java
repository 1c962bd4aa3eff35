package io.etcdworkers.format.codec;

import static io.etcdworkers.format.codec.CompressionTest.compress;
import static io.etcdworkers.format.codec.CompressionTest.concat;
import static io.etcdworkers.format.codec.CompressionTest.decompress;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.etcdworkers.testsupport.seeded.EdgeCases;
import io.etcdworkers.testsupport.seeded.SeededCase;
import io.etcdworkers.testsupport.seeded.SeededTest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The failure contract of {@link Compression#decompress} for the three real codecs: damaged
 * input ends in {@link CorruptStreamException} or {@link TruncatedStreamException} (or decodes
 * to other bytes, which the hash layer catches), never in another exception or a hang.
 */
@Timeout(60)
class CompressionCorruptionTest {
    private static final Compression[] CODECS = {Compression.GZIP, Compression.ZLIB, Compression.LZW};
    private static final byte[] ORIGINAL = firstBytesOfDelta(3000);
    private static final Map<Compression, byte[]> VALID = new EnumMap<>(Compression.class);

    static {
        for (Compression c : CODECS) {
            try {
                VALID.put(c, compress(c, ORIGINAL));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void truncationAtEveryPositionIsTruncated() throws IOException {
        for (Compression c : CODECS) {
            byte[] valid = VALID.get(c);
            assertThat(decompress(c, valid)).isEqualTo(ORIGINAL);
            for (int cut = 0; cut < valid.length; cut++) {
                byte[] prefix = Arrays.copyOf(valid, cut);
                ByteArrayOutputStream delivered = new ByteArrayOutputStream();
                assertThatThrownBy(() -> drain(c, prefix, delivered))
                        .as("%s cut at %d of %d", c, cut, valid.length)
                        .isInstanceOf(TruncatedStreamException.class);
                byte[] got = delivered.toByteArray();
                assertThat(got)
                        .as("%s bytes before the cut at %d", c, cut)
                        .isEqualTo(Arrays.copyOf(ORIGINAL, got.length));
            }
        }
    }

    @Test
    void dataAfterTheEndIsCorrupt() {
        for (Compression c : CODECS) {
            for (byte[] extra : new byte[][] {{0}, {'x'}, "trailing garbage".getBytes(), new byte[100_000]}) {
                byte[] input = concat(VALID.get(c), extra);
                assertThatThrownBy(() -> decompress(c, input))
                        .as("%s with %d extra bytes", c, extra.length)
                        .isInstanceOf(CorruptStreamException.class)
                        .hasMessageContaining("after the end");
            }
        }
    }

    /** Random tails: for gzip a tail may start like a next member and then be cut (truncated). */
    @SeededTest(tries = 300)
    void anyDataAfterTheEndFails(SeededCase c) {
        assertDataAfterTheEndFails(CODECS[c.intBetween(0, 2)], c.bytes(1, 300));
    }

    /** One byte of each edge value, the longest tails, and the first bytes of a next gzip member. */
    @ParameterizedTest
    @EnumSource(names = {"GZIP", "ZLIB", "LZW"})
    void edgeTailsAfterTheEndFail(Compression c) {
        for (byte[] extra : EdgeCases.byteArrays(1, 300)) {
            assertDataAfterTheEndFails(c, extra);
        }
        assertDataAfterTheEndFails(c, new byte[] {0x1f});
        assertDataAfterTheEndFails(c, new byte[] {0x1f, (byte) 0x8b});
    }

    private static void assertDataAfterTheEndFails(Compression c, byte[] extra) {
        byte[] input = concat(VALID.get(c), extra);
        assertThatThrownBy(() -> decompress(c, input))
                .as("%s with %s after the end", c, HexFormat.of().formatHex(extra))
                .isInstanceOfAny(CorruptStreamException.class, TruncatedStreamException.class);
    }

    @SeededTest(tries = 1000)
    void flippedBitsInValidStream(SeededCase c) {
        assertFlippedBitsFailCleanlyOrDecode(
                CODECS[c.intBetween(0, 2)], c.intBetween(0, 100_000), c.intBetween(1, 255));
    }

    /** The first and last positions the random cases pick, with one, two, all but one and all eight bits. */
    @ParameterizedTest
    @EnumSource(names = {"GZIP", "ZLIB", "LZW"})
    void flippedBitsAtTheEdgesFailCleanlyOrDecode(Compression c) {
        for (int position : new int[] {0, 1, 99_999, 100_000}) {
            for (int mask : new int[] {1, 2, 254, 255}) {
                assertFlippedBitsFailCleanlyOrDecode(c, position, mask);
            }
        }
    }

    private static void assertFlippedBitsFailCleanlyOrDecode(Compression c, int position, int mask) {
        byte[] damaged = VALID.get(c).clone();
        damaged[position % damaged.length] ^= (byte) mask;
        assertFailsCleanlyOrDecodes(c, damaged);
    }

    @SeededTest(tries = 1000)
    void randomBytes(SeededCase c) {
        assertFailsCleanlyOrDecodes(CODECS[c.intBetween(0, 2)], c.bytes(0, 3000));
    }

    /** Random bytes behind a valid header reach the inflater itself. */
    @SeededTest(tries = 1000)
    void validHeaderThenRandomBytes(SeededCase c) {
        assertHeaderThenBytesFailCleanlyOrDecode(CODECS[c.intBetween(0, 2)], c.bytes(0, 3000));
    }

    /** No byte, one byte of each edge value and the longest inputs, alone and behind a valid header. */
    @ParameterizedTest
    @EnumSource(names = {"GZIP", "ZLIB", "LZW"})
    void edgeInputsFailCleanlyOrDecode(Compression c) {
        for (byte[] garbage : EdgeCases.byteArrays(0, 3000)) {
            assertFailsCleanlyOrDecodes(c, garbage);
            assertHeaderThenBytesFailCleanlyOrDecode(c, garbage);
        }
    }

    private static void assertHeaderThenBytesFailCleanlyOrDecode(Compression c, byte[] garbage) {
        int keep = c == Compression.GZIP ? 10 : 2;
        assertFailsCleanlyOrDecodes(c, concat(Arrays.copyOf(VALID.get(c), keep), garbage));
    }

    private static void assertFailsCleanlyOrDecodes(Compression c, byte[] input) {
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            try {
                decompress(c, input);
            } catch (CorruptStreamException | TruncatedStreamException expected) {
                // one of the two documented outcomes
            } catch (Throwable other) {
                throw new AssertionError(
                        "unexpected " + other + " from " + c + " for "
                                + HexFormat.of().formatHex(input),
                        other);
            }
        });
    }

    private static void drain(Compression c, byte[] compressed, ByteArrayOutputStream delivered) throws IOException {
        try (InputStream in = c.decompress(new ByteArrayInputStream(compressed))) {
            byte[] buf = new byte[100];
            int n;
            while ((n = in.read(buf)) >= 0) {
                delivered.write(buf, 0, n);
            }
        }
    }

    private static byte[] firstBytesOfDelta(int n) {
        try {
            return Arrays.copyOf(EtcdbrFixtures.read("plain", "Incr-00003646-00003646-1795986619"), n);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
