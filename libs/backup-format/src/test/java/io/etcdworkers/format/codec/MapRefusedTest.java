package io.etcdworkers.format.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Library;
import com.sun.jna.Native;
import io.etcdworkers.testsupport.MainRun;
import io.etcdworkers.testsupport.ProcessRun;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * When the kernel refuses to map a buffer (an address-space limit, {@code ulimit -v}, or strict
 * overcommit), a delta is streamed through the JDK's reader instead of read whole, and the
 * restore goes on. The refusal is real: a child JVM lowers its own {@code RLIMIT_AS} to what it
 * has mapped plus a little less than one {@link BufferPool#GRANULE}, so the next mapping fails.
 */
class MapRefusedTest {

    @Test
    void aRefusedMappingStreamsTheDeltaInstead() throws Exception {
        GzipMembersOutputStreamTest.requireLibDeflate();
        // interpreted only: no compiler thread is started (and mapped) once the limit is set
        ProcessRun child = MainRun.run(
                LimitedMain.class, List.of("-Xint", "-XX:+UseSerialGC", "-Xms64m", "-Xmx64m"), Duration.ofSeconds(120));
        String output = MainRun.output(child);
        assertThat(child.exitCode()).as(output).isZero();
        assertThat(output)
                .contains("before the limit: pooled=2 sameContent=true")
                .contains("cannot map")
                .contains("after the limit: sameContent=true pooled=0 budgetKib=" + (WholeReads.CONTENT_BUDGET >> 10))
                .contains("mapping refused directly: OutOfMemoryError");
        assertThat(output.split("cannot map", -1))
                .as("the refusal is logged once")
                .hasSize(2);
    }

    /** Linux's {@code getrlimit}/{@code setrlimit}; a {@code struct rlimit} is two 64-bit values. */
    interface Limits extends Library {
        int RLIMIT_AS = 9;

        int getrlimit(int resource, long[] limit);

        int setrlimit(int resource, long[] limit);
    }

    /** Reads a delta whole, lowers its address-space limit, reads two more: the child's main. */
    public static final class LimitedMain {
        public static void main(String[] args) throws Exception {
            LibDeflate lib = LibDeflate.get().orElseThrow();
            byte[] data = ChunkStreams.databaseLike(1 << 20, 3);
            byte[] gz = ChunkStreams.oneMember(data);
            try (WholeReads warm = new WholeReads(Optional.of(lib), WholeReads.CONTENT_BUDGET)) {
                boolean same = read(warm, gz, data);
                System.out.println("before the limit: pooled=" + warm.pooledBuffers() + " sameContent=" + same);
            }
            try (InputStream in = Compression.GZIP.decompress(new ByteArrayInputStream(gz))) {
                in.readAllBytes(); // the streaming reader's classes loaded too
            }
            // everything the reads below need is loaded; their buffers were unmapped by close()
            Limits libc = Native.load("c", Limits.class);
            long[] limit = new long[2];
            check(libc.getrlimit(Limits.RLIMIT_AS, limit), "getrlimit");
            limit[0] = mappedBytes() + BufferPool.GRANULE - (1 << 20);
            check(libc.setrlimit(Limits.RLIMIT_AS, limit), "setrlimit");

            try (WholeReads limited = new WholeReads(Optional.of(lib), WholeReads.CONTENT_BUDGET)) {
                boolean same = read(limited, gz, data) & read(limited, gz, data);
                System.out.println("after the limit: sameContent=" + same + " pooled=" + limited.pooledBuffers()
                        + " budgetKib=" + limited.availableBudgetKib());
            }
            try {
                new MappedBuffer(BufferPool.GRANULE).close();
                System.out.println("mapping refused directly: no, the limit did not hold");
            } catch (OutOfMemoryError e) {
                System.out.println("mapping refused directly: OutOfMemoryError " + e.getMessage());
            }
        }

        private static boolean read(WholeReads reads, byte[] gz, byte[] data) throws Exception {
            try (InputStream in = reads.decompress(Compression.GZIP, new ByteArrayInputStream(gz), gz.length)) {
                return Arrays.equals(in.readAllBytes(), data);
            }
        }

        /** The process's mapped address space now ({@code VmSize}). */
        private static long mappedBytes() throws Exception {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmSize:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) << 10;
                }
            }
            throw new IllegalStateException("no VmSize in /proc/self/status");
        }

        private static void check(int rc, String call) {
            if (rc != 0) {
                throw new IllegalStateException(call + " failed, errno " + Native.getLastError());
            }
        }
    }
}
