package io.etcdworkers.format.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.testsupport.RequiredInCi;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Gzip members by the system's libdeflate: read back by three independent readers, and exactly what was promised. */
class GzipMembersOutputStreamTest {
    private static final int CHUNK = ParallelChunksOutputStream.CHUNK_SIZE;
    private static LibDeflate lib;

    @BeforeAll
    static void libdeflate() {
        lib = requireLibDeflate();
    }

    /** The system's libdeflate: CI must load it (.ci/run installs it); elsewhere its tests skip with a note. */
    static LibDeflate requireLibDeflate() {
        LibDeflate loaded = LibDeflate.get().orElse(null);
        if (loaded == null) {
            String message = "libdeflate cannot be loaded ("
                    + LibDeflate.unavailableReason().orElse("?") + "): install Debian's libdeflate0 (.ci/run does)";
            RequiredInCi.missing(message, "the libdeflate tests");
        }
        return loaded;
    }

    private static byte[] compress(byte[] data, int threads, int writeSize) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GzipMembersOutputStream(bytes, lib, threads)) {
            for (int off = 0; off < data.length; off += writeSize) {
                out.write(data, off, Math.min(writeSize, data.length - off));
            }
        }
        return bytes.toByteArray();
    }

    /** What the stream promises: libdeflate's gzip of each 1 MiB chunk at the level for the input's size, in order. */
    private static byte[] expected(byte[] data) {
        int level = data.length <= GzipMembersOutputStream.SMALL_INPUT
                ? GzipMembersOutputStream.SMALL_LEVEL
                : GzipMembersOutputStream.LEVEL;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int off = 0;
        do {
            int n = Math.min(CHUNK, data.length - off);
            ByteBuffer chunk =
                    ByteBuffer.allocateDirect(Math.max(n, 1)).put(data, off, n).flip();
            out.writeBytes(lib.gzip(level, chunk, ByteBuffer::allocateDirect));
            off += n;
        } while (off < data.length);
        return out.toByteArray();
    }

    @Test
    void edgesOfTheInputReadBackByTheJdkAndByOurReader() throws IOException {
        for (int size : new int[] {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 4 * CHUNK, 4 * CHUNK + 1, 6 * CHUNK + 77}) {
            byte[] data = ChunkStreams.databaseLike(size, size);
            byte[] gz = compress(data, 2, 100_000);
            assertThat(gz)
                    .as("%d bytes: one member per chunk at the promised level", size)
                    .isEqualTo(expected(data));
            try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
                assertThat(in.readAllBytes())
                        .as("%d bytes, the JDK's reader", size)
                        .isEqualTo(data);
            }
            try (InputStream in = Compression.GZIP.decompress(new ByteArrayInputStream(gz))) {
                assertThat(in.readAllBytes())
                        .as("%d bytes, ours (every member's CRC and length)", size)
                        .isEqualTo(data);
            }
        }
    }

    @Test
    void theBytesDoNotDependOnThreadsOrWriteSizes() throws IOException {
        byte[] data = ChunkStreams.databaseLike(5 * CHUNK + 3, 7);
        byte[] one = compress(data, 1, data.length);
        assertThat(compress(data, 2, 4096)).isEqualTo(one);
        assertThat(compress(data, 3, 1_000_003)).isEqualTo(one);
    }

    @Test
    void aSmallInputTakesTheDensestLevelALargeOneTheFastOne() throws IOException {
        byte[] small = ChunkStreams.databaseLike(3 * CHUNK, 8);
        ByteBuffer whole = ByteBuffer.allocateDirect(CHUNK).put(small, 0, CHUNK).flip();
        byte[] dense = lib.gzip(GzipMembersOutputStream.SMALL_LEVEL, whole, ByteBuffer::allocateDirect);
        byte[] fast = lib.gzip(GzipMembersOutputStream.LEVEL, whole, ByteBuffer::allocateDirect);
        assertThat(dense.length).isLessThan(fast.length);
        assertThat(compress(small, 2, CHUNK)).startsWith(dense);
        byte[] large = new byte[5 * CHUNK];
        System.arraycopy(small, 0, large, 0, small.length);
        assertThat(compress(large, 2, CHUNK)).startsWith(fast);
    }

    @Test
    void gnuGzipReadsIt(@TempDir Path dir) throws Exception {
        byte[] data = ChunkStreams.databaseLike(5 * CHUNK + 999, 4);
        assertThat(ChunkStreams.gnuGunzip(compress(data, 2, 65_536), dir)).isEqualTo(data);
    }

    @Test
    void aFailingSinkFailsTheWriteAndIsStillClosed() {
        ChunkStreams.failsWithItsSink(
                sink -> new GzipMembersOutputStream(sink, lib, 2), ChunkStreams.databaseLike(8 * CHUNK, 5));
    }

    @Test
    void refusesAHeapBuffer() {
        assertThatThrownBy(() -> lib.gzip(6, ByteBuffer.allocate(10), ByteBuffer::allocateDirect))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
