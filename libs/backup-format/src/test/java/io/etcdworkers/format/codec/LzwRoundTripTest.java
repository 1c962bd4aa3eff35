package io.etcdworkers.format.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import io.etcdworkers.testsupport.seeded.EdgeCases;
import io.etcdworkers.testsupport.seeded.SeededCase;
import io.etcdworkers.testsupport.seeded.SeededTest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Our writer and reader against each other and against an independent reference encoder. */
@Timeout(60)
class LzwRoundTripTest {

    @SeededTest(tries = 300)
    void randomBytesRoundTrip(SeededCase c) throws IOException {
        assertRoundTrips(c.bytes(0, 20_000));
    }

    /** Few symbols in long runs: long matches, the "code == hi" case, many dictionary clears. */
    @SeededTest(tries = 60)
    void repetitiveInputsRoundTrip(SeededCase c) throws IOException {
        assertRoundTrips(runs(
                c.intBetween(1, 4), c.intBetween(0, 400_000), 64, c.random().nextLong()));
    }

    @SeededTest(tries = 100)
    void writerMatchesReferenceEncoder(SeededCase c) throws IOException {
        assertWriterMatchesReferenceEncoder(mixed(c));
    }

    /** Streams that fill all 4096 codes and never clear: Go's reader takes them, so must we. */
    @SeededTest(tries = 60)
    void readerAcceptsFrozenDictionary(SeededCase c) throws IOException {
        assertReaderAcceptsFrozenDictionary(mixed(c));
    }

    /** Go's writer carries the pending match across Write calls, so the split must not matter. */
    @SeededTest(tries = 100)
    void outputDoesNotDependOnHowWritesAreSplit(SeededCase c) throws IOException {
        assertOutputDoesNotDependOnHowWritesAreSplit(mixed(c), c.random());
    }

    @SeededTest(tries = 100)
    void readingInAnyChunkSizesGivesTheSameBytes(SeededCase c) throws IOException {
        assertReadingInAnyChunkSizesGivesTheSameBytes(mixed(c), c.random());
    }

    /**
     * The edges of the random inputs, each through every check above: no byte, one byte of each edge
     * value, the longest random inputs, one symbol repeated as long as the longest repetitive input,
     * and 256 symbols in runs of one (the dictionary fills fastest).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("edgeInputs")
    void edgeInputsPassEveryCheck(byte[] data) throws IOException {
        assertRoundTrips(data);
        assertWriterMatchesReferenceEncoder(data);
        assertReaderAcceptsFrozenDictionary(data);
        assertOutputDoesNotDependOnHowWritesAreSplit(data, new Random(data.length));
        assertReadingInAnyChunkSizesGivesTheSameBytes(data, new Random(data.length));
    }

    static Stream<Named<byte[]>> edgeInputs() {
        Stream<Named<byte[]>> bytes = EdgeCases.byteArrays(0, 20_000).stream()
                .map(data -> named(data.length == 0 ? "no byte" : data.length + " bytes of " + data[0], data));
        return Stream.concat(
                bytes,
                Stream.of(
                        named("one symbol, 400,000 bytes", runs(1, 400_000, 64, 0)),
                        named("one symbol, 200,000 bytes in runs of up to 100", runs(1, 200_000, 100, 0)),
                        named("256 symbols, 200,000 bytes in runs of one", runs(256, 200_000, 1, 0))));
    }

    private static void assertRoundTrips(byte[] data) throws IOException {
        assertThat(decode(encode(data))).isEqualTo(data);
    }

    private static void assertWriterMatchesReferenceEncoder(byte[] data) throws IOException {
        assertThat(encode(data)).isEqualTo(LzwReferenceEncoder.encode(data, true));
    }

    private static void assertReaderAcceptsFrozenDictionary(byte[] data) throws IOException {
        assertThat(decode(LzwReferenceEncoder.encode(data, false))).isEqualTo(data);
    }

    private static void assertOutputDoesNotDependOnHowWritesAreSplit(byte[] data, Random random) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (LzwOutputStream out = new LzwOutputStream(sink)) {
            int i = 0;
            while (i < data.length) {
                if (random.nextInt(8) == 0) {
                    out.write(data[i++]);
                } else {
                    int n = Math.min(data.length - i, random.nextInt(5000));
                    out.write(data, i, n);
                    i += n;
                }
                if (random.nextInt(50) == 0) {
                    out.flush();
                }
            }
        }
        assertThat(sink.toByteArray()).isEqualTo(encode(data));
    }

    private static void assertReadingInAnyChunkSizesGivesTheSameBytes(byte[] data, Random random) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        try (InputStream in = new LzwInputStream(new ByteArrayInputStream(encode(data)))) {
            byte[] buf = new byte[70_000];
            while (true) {
                if (random.nextInt(4) == 0) {
                    int b = in.read();
                    if (b < 0) {
                        break;
                    }
                    got.write(b);
                } else {
                    int off = random.nextInt(100);
                    int n = in.read(buf, off, random.nextInt(buf.length - off));
                    if (n < 0) {
                        break;
                    }
                    got.write(buf, off, n);
                }
            }
        }
        assertThat(got.toByteArray()).isEqualTo(data);
    }

    /** Empty input: Go writes a clear code and the EOF code, both 9 bits wide. */
    @Test
    void emptyInputIsClearThenEof() throws IOException {
        byte[] compressed = encode(new byte[0]);
        assertThat(HexFormat.of().formatHex(compressed)).isEqualTo("000302");
        assertThat(decode(compressed)).isEmpty();
    }

    @Test
    void runOfOneByteUsesTheCodeBeingDefined() throws IOException {
        byte[] data = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".getBytes(StandardCharsets.US_ASCII);
        byte[] compressed = encode(data);
        // 41 = 1 + 2 + ... + 8 + 5: clear, 'a', then "aa" (258), "aaa" (259), ... "a"x8, each
        // sent right when the reader is about to define it, then "a"x5 and EOF: 11 codes of
        // 9 bits, 13 bytes.
        assertThat(compressed).hasSize(13);
        assertThat(decode(compressed)).isEqualTo(data);
    }

    /** 10 MB each of the three kinds of input; prints throughput, asserts only correctness. */
    @Test
    void tenMegabytes() throws IOException {
        int size = 10 << 20;
        byte[] text = EtcdbrFixtures.read("plain", "Incr-00003645-00003645-1795986617");
        byte[] json = new byte[size];
        for (int i = 0; i < size; i += text.length) {
            System.arraycopy(text, 0, json, i, Math.min(text.length, size - i));
        }
        byte[] random = new byte[size];
        new Random(42).nextBytes(random);
        byte[] zeros = new byte[size];
        for (var input : new Object[][] {{"etcd delta JSON", json}, {"random", random}, {"zeros", zeros}}) {
            byte[] data = (byte[]) input[1];
            long t0 = System.nanoTime();
            byte[] compressed = encode(data);
            long t1 = System.nanoTime();
            byte[] decoded = decode(compressed);
            long t2 = System.nanoTime();
            assertThat(Arrays.mismatch(decoded, data))
                    .as("first differing byte")
                    .isEqualTo(-1);
            System.out.printf(
                    "lzw %-16s %,d -> %,d bytes: encode %.0f MB/s, decode %.0f MB/s%n",
                    input[0], data.length, compressed.length, mbPerSecond(size, t1 - t0), mbPerSecond(size, t2 - t1));
        }
    }

    /** Random bytes (up to 3,000) or runs over 1 to 256 symbols (up to 200,000 bytes), half and half. */
    private static byte[] mixed(SeededCase c) {
        if (c.anyBoolean()) {
            return c.bytes(0, 3000);
        }
        return runs(
                c.intBetween(1, 256),
                c.intBetween(0, 200_000),
                c.intBetween(1, 100),
                c.random().nextLong());
    }

    /** Runs of random length over an alphabet of {@code symbols} byte values. */
    private static byte[] runs(int symbols, int length, int maxRun, long seed) {
        Random random = new Random(seed);
        byte[] data = new byte[length];
        int i = 0;
        while (i < length) {
            byte b = (byte) random.nextInt(symbols);
            int run = Math.min(length - i, 1 + random.nextInt(maxRun));
            Arrays.fill(data, i, i + run, b);
            i += run;
        }
        return data;
    }

    private static double mbPerSecond(long bytes, long nanos) {
        return bytes / 1e6 / (nanos / 1e9);
    }

    static byte[] encode(byte[] data) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (LzwOutputStream out = new LzwOutputStream(sink)) {
            out.write(data);
        }
        return sink.toByteArray();
    }

    static byte[] decode(byte[] compressed) throws IOException {
        try (LzwInputStream in = new LzwInputStream(new ByteArrayInputStream(compressed))) {
            return in.readAllBytes();
        }
    }
}
