package io.etcdworkers.format.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/** Our writer and reader against each other and against an independent reference encoder. */
class LzwRoundTripTest {

    @Property(tries = 300)
    void randomBytesRoundTrip(@ForAll @Size(max = 20_000) byte[] data) throws IOException {
        assertThat(decode(encode(data))).isEqualTo(data);
    }

    /** Few symbols in long runs: long matches, the "code == hi" case, many dictionary clears. */
    @Property(tries = 60)
    void repetitiveInputsRoundTrip(@ForAll("repetitive") byte[] data) throws IOException {
        assertThat(decode(encode(data))).isEqualTo(data);
    }

    @Property(tries = 100)
    void writerMatchesReferenceEncoder(@ForAll("mixed") byte[] data) throws IOException {
        assertThat(encode(data)).isEqualTo(LzwReferenceEncoder.encode(data, true));
    }

    /** Streams that fill all 4096 codes and never clear: Go's reader takes them, so must we. */
    @Property(tries = 60)
    void readerAcceptsFrozenDictionary(@ForAll("mixed") byte[] data) throws IOException {
        assertThat(decode(LzwReferenceEncoder.encode(data, false))).isEqualTo(data);
    }

    /** Go's writer carries the pending match across Write calls, so the split must not matter. */
    @Property(tries = 100)
    void outputDoesNotDependOnHowWritesAreSplit(@ForAll("mixed") byte[] data, @ForAll long seed)
            throws IOException {
        Random random = new Random(seed);
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

    @Property(tries = 100)
    void readingInAnyChunkSizesGivesTheSameBytes(@ForAll("mixed") byte[] data, @ForAll long seed)
            throws IOException {
        Random random = new Random(seed);
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
    @Example
    void emptyInputIsClearThenEof() throws IOException {
        byte[] compressed = encode(new byte[0]);
        assertThat(HexFormat.of().formatHex(compressed)).isEqualTo("000302");
        assertThat(decode(compressed)).isEmpty();
    }

    @Example
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
    @Example
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
            assertThat(Arrays.mismatch(decoded, data)).as("first differing byte").isEqualTo(-1);
            System.out.printf("lzw %-16s %,d -> %,d bytes: encode %.0f MB/s, decode %.0f MB/s%n",
                    input[0], data.length, compressed.length, mbPerSecond(size, t1 - t0),
                    mbPerSecond(size, t2 - t1));
        }
    }

    @Provide
    Arbitrary<byte[]> repetitive() {
        return Combinators.combine(
                        Arbitraries.integers().between(1, 4),
                        Arbitraries.integers().between(0, 400_000),
                        Arbitraries.longs())
                .as((symbols, length, seed) -> runs(symbols, length, 64, seed));
    }

    @Provide
    Arbitrary<byte[]> mixed() {
        return Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(3000),
                Combinators.combine(
                                Arbitraries.integers().between(1, 256),
                                Arbitraries.integers().between(0, 200_000),
                                Arbitraries.integers().between(1, 100),
                                Arbitraries.longs())
                        .as(LzwRoundTripTest::runs));
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
