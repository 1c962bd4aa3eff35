package io.etcdworkers.format.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The full snapshots this project writes are no larger than etcdbrctl's for the same database:
 * every full snapshot etcdbrctl wrote into the fixture buckets (Go's {@code compress/gzip} and
 * {@code compress/zlib} at their default level) is decompressed and compressed again with our
 * codec. Sizes are deterministic (same zlib, same input), so this is not a timing.
 */
class CompressionSizeTest {
    /** etcdbrctl's own output: object name in the fixture dir, its codec. */
    private record Written(Path object, Compression codec) {}

    private static List<Written> etcdbrctlFullSnapshots() {
        Path fixtures = Path.of(System.getProperty("fixtures.dir"));
        return List.of(
                new Written(
                        fixtures.resolve("etcdbr-v0.23.0/gzip/v2/Full-00000000-00000601-1795986606.gz"),
                        Compression.GZIP),
                new Written(
                        fixtures.resolve("etcdbr-v0.23.0/zlib/v2/Full-00000000-00000601-1795986606.zlib"),
                        Compression.ZLIB),
                new Written(
                        fixtures.resolve("etcdbr-v0.41.2/gzip/v2/Full-00000000-00000521-1796115241.gz"),
                        Compression.GZIP),
                new Written(
                        fixtures.resolve("etcdbr-v0.41.2/gzip/v2/Full-00000000-00002037-1796115300.gz"),
                        Compression.GZIP));
    }

    /** Writes {@code data} compressed with {@code codec}'s format. */
    private interface Writer {
        byte[] compress(Compression codec, byte[] data) throws IOException;
    }

    /** What the workers write: libdeflate's members for gzip where it is loaded (as in CI), else the JDK's zlib. */
    @Test
    void fullSnapshotsAreNoLargerThanEtcdbrctlsForTheSameDatabase() throws IOException {
        noLargerThanEtcdbrctls(CompressionSizeTest::compress);
    }

    /** The JDK's zlib writer alone: what gzip snapshots are where libdeflate cannot be loaded, and zlib ones always. */
    @Test
    void theJdkZlibWriterIsNoLargerEither() throws IOException {
        noLargerThanEtcdbrctls((codec, data) -> {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            ChunkedDeflateOutputStream.Format format = codec == Compression.GZIP
                    ? ChunkedDeflateOutputStream.Format.GZIP
                    : ChunkedDeflateOutputStream.Format.ZLIB;
            try (OutputStream out = new ChunkedDeflateOutputStream(
                    bytes, format, Compression.DEFLATE_LEVEL, Compression.DEFLATE_STRATEGY, 2)) {
                out.write(data);
            }
            return bytes.toByteArray();
        });
    }

    private static void noLargerThanEtcdbrctls(Writer writer) throws IOException {
        long theirs = 0;
        long ours = 0;
        for (Written w : etcdbrctlFullSnapshots()) {
            byte[] compressed = Files.readAllBytes(w.object());
            byte[] database = decompress(w.codec(), compressed);
            byte[] again = writer.compress(w.codec(), database);

            assertThat(decompress(w.codec(), again))
                    .as("round trip of %s", w.object())
                    .isEqualTo(database);
            // one of them is 0.15 % above Go's; none more than half a percent
            assertThat((double) again.length)
                    .as("%s: ours vs etcdbrctl's", w.object().getFileName())
                    .isLessThanOrEqualTo(compressed.length * 1.005);
            theirs += compressed.length;
            ours += again.length;
        }
        assertThat(ours).as("all four together").isLessThanOrEqualTo(theirs);
    }

    private static byte[] compress(Compression codec, byte[] data) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = codec.compress(bytes)) {
            out.write(data);
        }
        return bytes.toByteArray();
    }

    private static byte[] decompress(Compression codec, byte[] data) throws IOException {
        try (InputStream in = codec.decompress(new ByteArrayInputStream(data))) {
            return in.readAllBytes();
        }
    }
}
