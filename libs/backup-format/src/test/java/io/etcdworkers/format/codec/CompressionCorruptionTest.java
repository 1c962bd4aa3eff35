package io.etcdworkers.format.codec;

import static io.etcdworkers.format.codec.CompressionTest.compress;
import static io.etcdworkers.format.codec.CompressionTest.concat;
import static io.etcdworkers.format.codec.CompressionTest.decompress;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Map;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The failure contract of {@link Compression#decompress} for the three real codecs: damaged
 * input ends in {@link CorruptStreamException} or {@link TruncatedStreamException} (or decodes
 * to other bytes, which the hash layer catches), never in another exception or a hang.
 */
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

    @Example
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
                assertThat(got).as("%s bytes before the cut at %d", c, cut).isEqualTo(Arrays.copyOf(ORIGINAL, got.length));
            }
        }
    }

    @Example
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
    @Property(tries = 300)
    void anyDataAfterTheEndFails(@ForAll @Size(min = 1, max = 300) byte[] extra,
                                 @ForAll @IntRange(min = 0, max = 2) int codec) {
        Compression c = CODECS[codec];
        byte[] input = concat(VALID.get(c), extra);
        assertThatThrownBy(() -> decompress(c, input))
                .isInstanceOfAny(CorruptStreamException.class, TruncatedStreamException.class);
    }

    @Property(tries = 1000)
    void flippedBitsInValidStream(@ForAll @IntRange(min = 0, max = 2) int codec,
                                  @ForAll @IntRange(min = 0, max = 100_000) int position,
                                  @ForAll @IntRange(min = 1, max = 255) int mask) {
        Compression c = CODECS[codec];
        byte[] damaged = VALID.get(c).clone();
        damaged[position % damaged.length] ^= (byte) mask;
        assertFailsCleanlyOrDecodes(c, damaged);
    }

    @Property(tries = 1000)
    void randomBytes(@ForAll @IntRange(min = 0, max = 2) int codec, @ForAll @Size(max = 3000) byte[] garbage) {
        assertFailsCleanlyOrDecodes(CODECS[codec], garbage);
    }

    /** Random bytes behind a valid header reach the inflater itself. */
    @Property(tries = 1000)
    void validHeaderThenRandomBytes(@ForAll @IntRange(min = 0, max = 2) int codec,
                                    @ForAll @Size(max = 3000) byte[] garbage) {
        Compression c = CODECS[codec];
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
                throw new AssertionError("unexpected " + other + " from " + c + " for "
                        + HexFormat.of().formatHex(input), other);
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
