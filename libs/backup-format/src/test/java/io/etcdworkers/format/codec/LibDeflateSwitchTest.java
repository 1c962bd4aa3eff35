package io.etcdworkers.format.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.MainRun;
import io.etcdworkers.testsupport.ProcessRun;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;

/**
 * {@code -Detcdworkers.libdeflate=false} turns libdeflate off for the whole JVM (it is read once,
 * so a child JVM is started): gzip snapshots are then written by the JDK's zlib as one stream and
 * read as before. The same child without the switch uses libdeflate, so the test tells them apart.
 */
class LibDeflateSwitchTest {

    @Test
    void theSwitchTurnsLibDeflateOffAndGzipStillRoundTrips() {
        GzipMembersOutputStreamTest.requireLibDeflate();
        assertThat(child("-D" + LibDeflate.SWITCH + "=false"))
                .contains("libdeflate=off reason=turned off (-D" + LibDeflate.SWITCH + "=false)")
                .contains("members=1 roundTrip=true wholeRead=true");
        assertThat(child("-D" + LibDeflate.SWITCH + "=true"))
                .contains("libdeflate=on")
                .contains("members=3 roundTrip=true wholeRead=true");
    }

    private static String child(String property) {
        ProcessRun child = MainRun.run(SwitchMain.class, List.of(property), Duration.ofSeconds(60));
        String output = MainRun.output(child);
        assertThat(child.exitCode()).as(output).isZero();
        return output;
    }

    /** Writes 2.5 MiB as a gzip snapshot, counts its members, reads it back both ways: the child's main. */
    public static final class SwitchMain {
        public static void main(String[] args) throws Exception {
            System.out.println(
                    LibDeflate.get().isPresent()
                            ? "libdeflate=on"
                            : "libdeflate=off reason="
                                    + LibDeflate.unavailableReason().orElse("?"));
            byte[] data = ChunkStreams.databaseLike(5 * ParallelChunksOutputStream.CHUNK_SIZE / 2, 1);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (OutputStream out = Compression.GZIP.compress(bytes)) {
                out.write(data);
            }
            byte[] gz = bytes.toByteArray();
            boolean roundTrip;
            try (InputStream in = Compression.GZIP.decompressFull(new ByteArrayInputStream(gz))) {
                roundTrip = Arrays.equals(in.readAllBytes(), data);
            }
            boolean wholeRead;
            try (WholeReads reads = new WholeReads();
                    InputStream in = reads.decompress(Compression.GZIP, new ByteArrayInputStream(gz), gz.length)) {
                wholeRead = Arrays.equals(in.readAllBytes(), data);
            }
            System.out.println("members=" + members(gz) + " roundTrip=" + roundTrip + " wholeRead=" + wholeRead);
        }

        /** Gzip members, counted by decompressing one at a time with the JDK's reader. */
        private static int members(byte[] gz) throws Exception {
            int members = 0;
            int offset = 0;
            while (offset < gz.length) {
                Inflater inflater = new Inflater(true);
                int header = 10; // the writers here set no optional header fields
                inflater.setInput(gz, offset + header, gz.length - offset - header);
                byte[] sink = new byte[1 << 16];
                while (!inflater.finished()) {
                    inflater.inflate(sink);
                }
                offset = gz.length - inflater.getRemaining() + 8;
                inflater.end();
                members++;
            }
            return members;
        }
    }
}
