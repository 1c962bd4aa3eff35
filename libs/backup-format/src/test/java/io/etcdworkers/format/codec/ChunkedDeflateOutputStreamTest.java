package io.etcdworkers.format.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.format.codec.ChunkedDeflateOutputStream.Format;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChunkedDeflateOutputStreamTest {
    private static final int CHUNK = ChunkedDeflateOutputStream.CHUNK_SIZE;

    private static byte[] compress(Format format, int threads, byte[] data, int writeSize) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new ChunkedDeflateOutputStream(bytes, format, 8, Deflater.FILTERED, threads)) {
            for (int off = 0; off < data.length; off += writeSize) {
                out.write(data, off, Math.min(writeSize, data.length - off));
            }
        }
        return bytes.toByteArray();
    }

    /** The JDK's own inflaters, which know nothing of this class. */
    private static byte[] jdkInflate(Format format, byte[] compressed) throws IOException {
        try (InputStream in = format == Format.GZIP
                ? new GZIPInputStream(new ByteArrayInputStream(compressed))
                : new InflaterInputStream(new ByteArrayInputStream(compressed))) {
            return in.readAllBytes();
        }
    }

    @Test
    void manyChunksReadBackAsOneStreamByTheJdkAndByOurReader() throws IOException {
        byte[] data = ChunkStreams.databaseLike(5 * CHUNK + 12_345, 1);
        for (Format format : Format.values()) {
            byte[] compressed = compress(format, 3, data, 70_000);
            assertThat(jdkInflate(format, compressed)).as("%s, JDK", format).isEqualTo(data);
            Compression codec = format == Format.GZIP ? Compression.GZIP : Compression.ZLIB;
            try (InputStream in = codec.decompress(new ByteArrayInputStream(compressed))) {
                assertThat(in.readAllBytes())
                        .as("%s, ours (checks trailer and end)", format)
                        .isEqualTo(data);
            }
        }
    }

    @Test
    void theBytesDoNotDependOnThreadsOrWriteSizes() throws IOException {
        byte[] data = ChunkStreams.databaseLike(3 * CHUNK + 77, 2);
        byte[] one = compress(Format.GZIP, 1, data, data.length);
        assertThat(compress(Format.GZIP, 2, data, 4096)).isEqualTo(one);
        assertThat(compress(Format.GZIP, 4, data, 1)).isEqualTo(one);
    }

    @Test
    void chunkingCostsAlmostNothingAgainstOneDeflateStream() throws IOException {
        byte[] data = ChunkStreams.databaseLike(8 * CHUNK, 3);
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        Deflater deflater = new Deflater(8);
        deflater.setStrategy(Deflater.FILTERED);
        try (OutputStream out = new DeflaterOutputStream(whole, deflater)) {
            out.write(data);
        } finally {
            deflater.end();
        }
        byte[] chunked = compress(Format.ZLIB, 2, data, data.length);
        // the dictionaries carry matches across the boundaries; a sync flush costs a few bytes
        assertThat((double) chunked.length).isLessThanOrEqualTo(whole.size() * 1.001);
    }

    @Test
    void edgesOfTheInput() throws IOException {
        for (int size : new int[] {0, 1, 32 * 1024 - 1, CHUNK, CHUNK + 1, 2 * CHUNK}) {
            byte[] data = ChunkStreams.databaseLike(size, size);
            for (Format format : Format.values()) {
                assertThat(jdkInflate(format, compress(format, 2, data, 10_000)))
                        .as("%s %d bytes", format, size)
                        .isEqualTo(data);
            }
        }
    }

    @Test
    void zlibHeaderSaysTheLevelAndNoDictionary() throws IOException {
        byte[] compressed = compress(Format.ZLIB, 1, new byte[10], 10);
        // what zlib itself writes at levels 7 to 9
        assertThat(compressed[0]).isEqualTo((byte) 0x78);
        assertThat(compressed[1]).isEqualTo((byte) 0xda);
    }

    @Test
    void gnuGzipReadsIt(@TempDir Path dir) throws Exception {
        byte[] data = ChunkStreams.databaseLike(2 * CHUNK + 999, 4);
        assertThat(ChunkStreams.gnuGunzip(compress(Format.GZIP, 2, data, 65_536), dir))
                .isEqualTo(data);
    }

    @Test
    void aFailingSinkFailsTheWriteAndIsStillClosed() {
        ChunkStreams.failsWithItsSink(
                sink -> new ChunkedDeflateOutputStream(sink, Format.GZIP, 8, Deflater.FILTERED, 2),
                ChunkStreams.databaseLike(3 * CHUNK, 5));
    }
}
