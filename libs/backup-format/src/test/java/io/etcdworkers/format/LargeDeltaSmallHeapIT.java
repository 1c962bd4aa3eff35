package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.MainRun;
import io.etcdworkers.testsupport.ProcessRun;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 100 MB delta decodes in a JVM with a 48 MB heap: the decoder streams, it never holds a
 * whole delta. Runs the decoder in a child JVM so the heap limit is real.
 */
@Timeout(300)
class LargeDeltaSmallHeapIT {
    @TempDir
    Path dir;

    @Test
    void hundredMegabyteDeltaDecodesInA48MegabyteHeap() throws Exception {
        Path delta = dir.resolve("Incr-big");
        long events = 0;
        Random random = new Random(7);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(delta), 1 << 16);
                DeltaWriter writer = new DeltaWriter(out)) {
            OffsetDateTime time = OffsetDateTime.parse("2024-05-01T10:20:30Z");
            byte[] value = new byte[3000];
            for (long revision = 1000; Files.size(delta) < 100L * 1024 * 1024 || events % 3 != 0; revision++) {
                random.nextBytes(value);
                byte[] key =
                        ("/registry/pods/ns-" + (revision % 97) + "/pod-" + revision).getBytes(StandardCharsets.UTF_8);
                writer.write(DeltaEvent.put(key, value, revision, revision, 1, 0, time));
                events++;
                if (events % 1000 == 0) {
                    out.flush();
                }
            }
        }
        assertThat(Files.size(delta)).isGreaterThan(100L * 1024 * 1024);

        ProcessRun child =
                MainRun.run(DecodeFileMain.class, List.of("-Xmx48m"), Duration.ofSeconds(240), delta.toString());
        String output = MainRun.output(child);

        assertThat(child.exitCode()).as(output).isZero();
        assertThat(output).contains("events=" + events);
    }

    /** Decodes one delta file and prints its summary: the child JVM's main. */
    public static final class DecodeFileMain {
        public static void main(String[] args) throws Exception {
            try (var in = Files.newInputStream(Path.of(args[0]))) {
                DeltaSummary summary = DeltaDecoder.verify(args[0], in);
                System.out.println("events=" + summary.events() + " maxHeapMb="
                        + Runtime.getRuntime().maxMemory() / 1048576);
            }
        }
    }
}
