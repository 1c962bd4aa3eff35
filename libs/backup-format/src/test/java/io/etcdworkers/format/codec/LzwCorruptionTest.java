package io.etcdworkers.format.codec;

import static io.etcdworkers.format.codec.LzwRoundTripTest.decode;
import static io.etcdworkers.format.codec.LzwRoundTripTest.encode;
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
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Damaged input ends in one of the two failure types, quickly; never in another exception, a
 * hang, or a silent end. Decoding that still succeeds is fine: the hash layer catches it.
 */
@Timeout(60)
class LzwCorruptionTest {
    /** A real delta's first 3 KB: a valid stream of a few hundred bytes with multi-byte codes. */
    private static final byte[] ORIGINAL = firstBytesOfDelta(3000);

    private static final byte[] VALID = encodeUnchecked(ORIGINAL);

    @SeededTest(tries = 1000)
    void randomBytes(SeededCase c) {
        assertFailsCleanlyOrDecodes(c.bytes(0, 5000));
    }

    /** Garbage after a valid start gets past the first codes, deeper into the decoder. */
    @SeededTest(tries = 1000)
    void validStartThenRandomBytes(SeededCase c) {
        assertFailsCleanlyOrDecodes(validStartThen(c.intBetween(1, 400), c.bytes(0, 2000)));
    }

    /** No byte, one of each edge value and the longest, alone and behind the shortest and longest valid start. */
    @Test
    void edgeInputsFailCleanlyOrDecode() {
        for (byte[] garbage : EdgeCases.byteArrays(0, 5000)) {
            assertFailsCleanlyOrDecodes(garbage);
        }
        for (byte[] garbage : EdgeCases.byteArrays(0, 2000)) {
            for (int keep : new int[] {1, 2, 399, 400}) {
                assertFailsCleanlyOrDecodes(validStartThen(keep, garbage));
            }
        }
    }

    private static byte[] validStartThen(int keep, byte[] garbage) {
        int n = Math.min(keep, VALID.length);
        byte[] input = Arrays.copyOf(VALID, n + garbage.length);
        System.arraycopy(garbage, 0, input, n, garbage.length);
        return input;
    }

    @SeededTest(tries = 1000)
    void flippedBitsInValidStream(SeededCase c) {
        assertFlippedBitsFailCleanlyOrDecode(c.intBetween(0, 10_000), c.intBetween(1, 255), c.intBetween(0, 10_000));
    }

    /** The first and last positions the random cases pick, with one, two, all but one and all eight bits. */
    @Test
    void flippedBitsAtTheEdgesFailCleanlyOrDecode() {
        int[] positions = {0, 1, 9_999, 10_000};
        for (int position : positions) {
            for (int mask : new int[] {1, 2, 254, 255}) {
                for (int secondPosition : positions) {
                    assertFlippedBitsFailCleanlyOrDecode(position, mask, secondPosition);
                }
            }
        }
    }

    private static void assertFlippedBitsFailCleanlyOrDecode(int position, int mask, int secondPosition) {
        byte[] damaged = VALID.clone();
        damaged[position % damaged.length] ^= (byte) mask;
        damaged[secondPosition % damaged.length] ^= (byte) (mask >>> 1);
        assertFailsCleanlyOrDecodes(damaged);
    }

    /** Every strict prefix lacks (part of) the EOF code: truncated, never corrupt, never a clean end. */
    @Test
    void truncationAtEveryPosition() throws IOException {
        assertThat(decode(VALID)).isEqualTo(ORIGINAL);
        for (int cut = 0; cut < VALID.length; cut++) {
            ByteArrayOutputStream delivered = new ByteArrayOutputStream();
            byte[] prefix = Arrays.copyOf(VALID, cut);
            assertThatThrownBy(() -> drain(prefix, delivered))
                    .as("cut at %d of %d", cut, VALID.length)
                    .isInstanceOf(TruncatedStreamException.class);
            // What was decoded before the cut was handed out, and it is the start of the original.
            byte[] got = delivered.toByteArray();
            assertThat(got).isEqualTo(Arrays.copyOf(ORIGINAL, got.length));
        }
    }

    @Test
    void dataAfterTheEofCodeIsCorrupt() {
        for (byte extra : new byte[] {0, 1, (byte) 0xff}) {
            byte[] input = Arrays.copyOf(VALID, VALID.length + 1);
            input[VALID.length] = extra;
            assertThatThrownBy(() -> decode(input))
                    .isInstanceOf(CorruptStreamException.class)
                    .hasMessageContaining("data after the end of the stream");
        }
    }

    /** Clear, 'a' (0x61), then code 300 while only 258 may be used: Go's "invalid code". */
    @Test
    void undefinedCodeIsCorruptAfterTheBytesBeforeIt() throws IOException {
        // 9-bit codes LSB first: 256 | 0x61 << 9 | 300 << 18 | 257 << 27.
        long bits = 256L | 0x61L << 9 | 300L << 18 | 257L << 27;
        byte[] input = Arrays.copyOf(longLittleEndian(bits), 5);
        try (InputStream in = new LzwInputStream(new ByteArrayInputStream(input))) {
            assertThat(in.read()).isEqualTo(0x61);
            assertThatThrownBy(in::read)
                    .isInstanceOf(CorruptStreamException.class)
                    .hasMessageContaining("invalid code 300");
            // The failure sticks: no read may look like a clean end afterwards.
            assertThatThrownBy(in::read).isInstanceOf(CorruptStreamException.class);
        }
    }

    @Test
    void clearCodesAnywhereAreAccepted() throws IOException {
        // clear, clear, 'a', clear, 'b', EOF: a reader must reset each time and go on.
        long bits = 256L | 256L << 9 | 0x61L << 18 | 256L << 27 | 0x62L << 36 | 257L << 45;
        byte[] input = Arrays.copyOf(longLittleEndian(bits), 7);
        assertThat(decode(input)).containsExactly('a', 'b');
    }

    @Test
    void readAfterCloseFails() throws IOException {
        InputStream in = new LzwInputStream(new ByteArrayInputStream(VALID));
        in.close();
        assertThatThrownBy(in::read).isInstanceOf(IOException.class).hasMessage("Stream closed");
    }

    @Test
    void emptyInputIsTruncated() {
        assertThatThrownBy(() -> decode(new byte[0])).isInstanceOf(TruncatedStreamException.class);
    }

    private static void assertFailsCleanlyOrDecodes(byte[] input) {
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            try {
                decode(input);
            } catch (CorruptStreamException | TruncatedStreamException expected) {
                // one of the two documented outcomes
            } catch (Throwable other) {
                throw new AssertionError(
                        "unexpected " + other + " for input " + HexFormat.of().formatHex(input), other);
            }
        });
    }

    private static void drain(byte[] compressed, ByteArrayOutputStream delivered) throws IOException {
        try (InputStream in = new LzwInputStream(new ByteArrayInputStream(compressed))) {
            byte[] buf = new byte[100];
            int n;
            while ((n = in.read(buf)) >= 0) {
                delivered.write(buf, 0, n);
            }
        }
    }

    private static byte[] longLittleEndian(long value) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (value >>> (8 * i));
        }
        return b;
    }

    private static byte[] firstBytesOfDelta(int n) {
        try {
            return Arrays.copyOf(EtcdbrFixtures.read("plain", "Incr-00003646-00003646-1795986619"), n);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] encodeUnchecked(byte[] data) {
        try {
            return encode(data);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
