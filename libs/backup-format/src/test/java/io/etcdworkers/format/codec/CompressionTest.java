package io.etcdworkers.format.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class CompressionTest {

    @ParameterizedTest
    @CsvSource({"NONE, '', none", "GZIP, .gz, gzip", "ZLIB, .zlib, zlib", "LZW, .Z, lzw"})
    void suffixAndPolicyNameMapBothWays(Compression compression, String suffix, String policyName) {
        assertThat(compression.suffix()).isEqualTo(suffix);
        assertThat(compression.policyName()).isEqualTo(policyName);
        assertThat(Compression.fromSuffix(suffix)).contains(compression);
        assertThat(Compression.fromPolicyName(policyName)).contains(compression);
    }

    @ParameterizedTest
    @ValueSource(strings = {".z", ".GZ", ".gzip", ".zip", ".lzw", ".final", ".Z.final", "Z", "gz", " "})
    void unknownSuffixes(String suffix) {
        assertThat(Compression.fromSuffix(suffix)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "GZIP", "Lzw", "lzma", "deflate", ".gz"})
    void unknownPolicyNames(String name) {
        assertThat(Compression.fromPolicyName(name)).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void roundTripsEmptySmallAndLargeInputs(Compression compression) throws IOException {
        byte[] large = new byte[3 << 20];
        new Random(7).nextBytes(large);
        for (byte[] data : new byte[][] {new byte[0], {42}, "etcd".getBytes(StandardCharsets.UTF_8), large}) {
            assertThat(decompress(compression, compress(compression, data))).isEqualTo(data);
        }
    }

    /**
     * A deflate stream with a 32 KiB window, no preset dictionary and a valid check (RFC 1950);
     * its level hint says "maximum" (we write level 8), where Go's zlib.NewWriter says "default"
     * (789c): the hint is not needed for decompression, and Go's reader ignores it.
     */
    @Test
    void zlibHeaderIsADeflateStreamWithoutADictionary() throws IOException {
        byte[] out = compress(Compression.ZLIB, new byte[10]);
        assertThat(HexFormat.of().formatHex(out, 0, 2)).isEqualTo("78da");
        assertThat(((out[0] & 0xff) << 8 | (out[1] & 0xff)) % 31).isZero();
        assertThat(out[1] & 0x20).as("FDICT").isZero();
    }

    @Test
    void gzipHeaderIsPlainDeflateMember() throws IOException {
        assertThat(HexFormat.of().formatHex(compress(Compression.GZIP, new byte[10]), 0, 3))
                .isEqualTo("1f8b08");
    }

    /** Concatenated gzip members are one gzip stream (Go's reader is multistream by default). */
    @Test
    void gzipMembersAreConcatenated() throws IOException {
        byte[] first = compress(Compression.GZIP, "first ".getBytes(StandardCharsets.US_ASCII));
        byte[] second = compress(Compression.GZIP, "second".getBytes(StandardCharsets.US_ASCII));
        byte[] both = concat(first, second);
        assertThat(new String(decompress(Compression.GZIP, both), StandardCharsets.US_ASCII))
                .isEqualTo("first second");
    }

    /** A header with every optional field, as other gzip writers may produce it. */
    @Test
    void gzipHeaderOptionalFieldsAreSkipped() throws IOException {
        byte[] plain = compress(Compression.GZIP, "payload".getBytes(StandardCharsets.US_ASCII));
        ByteArrayOutputStream header = new ByteArrayOutputStream();
        header.write(new byte[] {0x1f, (byte) 0x8b, 8, 0x02 | 0x04 | 0x08 | 0x10, 0, 0, 0, 0, 0, (byte) 0xff});
        header.write(new byte[] {3, 0, 'x', 'y', 'z'});
        header.write("name.txt\0a comment\0".getBytes(StandardCharsets.US_ASCII));
        CRC32 crc = new CRC32();
        crc.update(header.toByteArray());
        header.write((int) crc.getValue());
        header.write((int) (crc.getValue() >>> 8));
        byte[] withFields = concat(header.toByteArray(), Arrays.copyOfRange(plain, 10, plain.length));
        assertThat(new String(decompress(Compression.GZIP, withFields), StandardCharsets.US_ASCII))
                .isEqualTo("payload");

        withFields[header.size() - 1] ^= 1;
        assertThatThrownBy(() -> decompress(Compression.GZIP, withFields))
                .isInstanceOf(CorruptStreamException.class)
                .hasMessageContaining("header CRC");
    }

    @Test
    void gzipTrailerIsChecked() throws IOException {
        byte[] valid = compress(Compression.GZIP, "payload".getBytes(StandardCharsets.US_ASCII));
        byte[] badCrc = valid.clone();
        badCrc[valid.length - 8] ^= 1;
        byte[] badLength = valid.clone();
        badLength[valid.length - 4] ^= 1;
        assertThatThrownBy(() -> decompress(Compression.GZIP, badCrc))
                .isInstanceOf(CorruptStreamException.class)
                .hasMessageContaining("CRC-32");
        assertThatThrownBy(() -> decompress(Compression.GZIP, badLength))
                .isInstanceOf(CorruptStreamException.class)
                .hasMessageContaining("length");
    }

    @Test
    void zlibChecksumIsChecked() throws IOException {
        byte[] bad = compress(Compression.ZLIB, "payload".getBytes(StandardCharsets.US_ASCII));
        bad[bad.length - 1] ^= 1;
        assertThatThrownBy(() -> decompress(Compression.ZLIB, bad)).isInstanceOf(CorruptStreamException.class);
    }

    @ParameterizedTest
    @EnumSource(
            value = Compression.class,
            names = {"GZIP", "ZLIB", "LZW"})
    void emptyInputIsTruncated(Compression compression) {
        assertThatThrownBy(() -> decompress(compression, new byte[0])).isInstanceOf(TruncatedStreamException.class);
    }

    @Test
    void wrongFormatIsCorrupt() throws IOException {
        byte[] zlib = compress(Compression.ZLIB, "payload".getBytes(StandardCharsets.US_ASCII));
        byte[] gzip = compress(Compression.GZIP, "payload".getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> decompress(Compression.GZIP, zlib))
                .isInstanceOf(CorruptStreamException.class)
                .hasMessageContaining("magic");
        assertThatThrownBy(() -> decompress(Compression.ZLIB, gzip)).isInstanceOf(CorruptStreamException.class);
    }

    @Test
    void noneIsThePlainStreamItself() throws IOException {
        InputStream raw = new ByteArrayInputStream(new byte[3]);
        OutputStream sink = new ByteArrayOutputStream();
        assertThat(Compression.NONE.decompress(raw)).isSameAs(raw);
        assertThat(Compression.NONE.compress(sink)).isSameAs(sink);
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void closingTheStreamsClosesWhatTheyWrap(Compression compression) throws IOException {
        boolean[] closed = new boolean[2];
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        OutputStream sink = new FilterOutputStream(bytes) {
            @Override
            public void close() throws IOException {
                closed[0] = true;
                super.close();
            }
        };
        try (OutputStream out = compression.compress(sink)) {
            out.write(1);
        }
        InputStream raw = new FilterInputStream(new ByteArrayInputStream(bytes.toByteArray())) {
            @Override
            public void close() throws IOException {
                closed[1] = true;
                super.close();
            }
        };
        try (InputStream in = compression.decompress(raw)) {
            assertThat(in.readAllBytes()).containsExactly(1);
        }
        assertThat(closed).containsExactly(true, true);
    }

    static byte[] compress(Compression compression, byte[] data) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (OutputStream out = compression.compress(sink)) {
            out.write(data);
        }
        return sink.toByteArray();
    }

    static byte[] decompress(Compression compression, byte[] compressed) throws IOException {
        try (InputStream in = compression.decompress(new ByteArrayInputStream(compressed))) {
            return in.readAllBytes();
        }
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
