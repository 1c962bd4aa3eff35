package io.etcdworkers.format.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * libdeflate's member-by-member reading gives what the JDK zlib reader gives: the same bytes for
 * every valid file, and for every damaged one the same bytes before the same exception with the
 * same message.
 */
class MemberInflatingInputStreamTest {
    private static final int CHUNK = ParallelChunksOutputStream.CHUNK_SIZE;
    private static LibDeflate lib;

    @BeforeAll
    static void libdeflate() {
        lib = GzipMembersOutputStreamTest.requireLibDeflate();
    }

    private static ReadOutcome members(byte[] gz, int readSize) {
        return ReadOutcome.of(new MemberInflatingInputStream(new ByteArrayInputStream(gz), lib), readSize);
    }

    private static ReadOutcome jdk(byte[] gz) {
        return ReadOutcome.of(InflatingInputStream.gzip(new ByteArrayInputStream(gz)), 65_536);
    }

    private static byte[] ours(byte[] data) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GzipMembersOutputStream(bytes, lib, 2)) {
            out.write(data);
        }
        return bytes.toByteArray();
    }

    @Test
    void readsWhatOurWriterWroteAtEverySize() throws IOException {
        for (int size : new int[] {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 5 * CHUNK + 17}) {
            byte[] data = ChunkStreams.databaseLike(size, size);
            byte[] gz = ours(data);
            assertThat(members(gz, 8192)).as("%d bytes", size).isEqualTo(new ReadOutcome(data, null));
        }
    }

    @Test
    void aLargeMemberGoesToTheJdkReaderFromWhereItStarts() throws IOException {
        byte[] small = ChunkStreams.databaseLike(3 * CHUNK + 5, 1);
        byte[] large = ChunkStreams.databaseLike(3 * CHUNK, 2);
        byte[] gz = CompressionTest.concat(ours(small), ChunkStreams.oneMember(large));
        assertThat(members(gz, 100_000)).isEqualTo(new ReadOutcome(CompressionTest.concat(small, large), null));
        // a single large member, as etcdbrctl writes: all of it to the JDK reader
        assertThat(members(ChunkStreams.oneMember(large), 3)).isEqualTo(new ReadOutcome(large, null));
    }

    @Test
    void etcdbrctlsFullSnapshotsReadAsTheJdkReaderReadsThem() throws IOException {
        Path fixtures = Path.of(System.getProperty("fixtures.dir"));
        for (String name : new String[] {
            "etcdbr-v0.23.0/gzip/v2/Full-00000000-00000601-1795986606.gz",
            "etcdbr-v0.41.2/gzip/v2/Full-00000000-00002037-1796115300.gz"
        }) {
            byte[] gz = Files.readAllBytes(fixtures.resolve(name));
            ReadOutcome expected = jdk(gz);
            assertThat(expected.end()).isNull();
            assertThat(members(gz, 4096)).as(name).isEqualTo(expected);
        }
    }

    @Test
    void damageEndsExactlyAsWithTheJdkReader() throws IOException {
        byte[] data = ChunkStreams.databaseLike(3 * CHUNK + 4321, 3);
        byte[] valid = ours(data);
        Random sizes = new Random(42);
        for (Damage d : Damage.of(valid, 42, 120)) {
            assertThat(members(d.bytes(), 1 + sizes.nextInt(70_000)))
                    .as(d.what())
                    .isEqualTo(jdk(d.bytes()));
        }
    }

    @Test
    void emptyInputIsTruncatedAsWithTheJdkReader() {
        ReadOutcome empty = members(new byte[0], 10);
        assertThat(empty).isEqualTo(jdk(new byte[0]));
        assertThat(empty.end()).startsWith("TruncatedStreamException");
    }
}
