package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A delta whose event array is left open but whose SHA-256 trailer matches holds exactly the bytes
 * its writer produced: fetching it again cannot help, so it is corrupt, not truncated.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class IncompleteDeltaArrayTest {

    private static final int TRAILER = 32;

    @TempDir
    Path dir;

    /** {@code fromEnd}: how many bytes of JSON are cut from its end (1 removes just the closing bracket). */
    @ParameterizedTest(name = "JSON cut {0} bytes before its end")
    @ValueSource(ints = {1, 2, 40, 300})
    void anOpenArrayWhoseTrailerMatchesIsCorrupt(int fromEnd) throws Exception {
        byte[] json = writtenJson();
        byte[] cut = Arrays.copyOf(json, json.length - fromEnd);
        Path delta = writeFile("Incr-100-110-1714558830", cut, DeltaBytes.sha256(cut));

        assertThatThrownBy(() -> decode(delta)).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.CORRUPT_OBJECT);
            assertThat(e.getMessage()).contains(delta.getFileName().toString(), "trailer matches");
        });
    }

    @ParameterizedTest(name = "object cut {0} bytes into its JSON")
    @ValueSource(ints = {1, 2, 40, 300})
    void anObjectCutShortWithoutItsTrailerIsStillTruncated(int fromEnd) throws Exception {
        byte[] json = writtenJson();
        byte[] cut = Arrays.copyOf(json, json.length - fromEnd);
        Path delta = writeFile("Incr-100-110-1714558830", cut, new byte[0]);

        assertThatThrownBy(() -> decode(delta))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TRUNCATED_OBJECT));
    }

    /** The JSON of a delta as {@link DeltaWriter} writes it, without its trailer. */
    private byte[] writtenJson() throws IOException {
        Path whole = dir.resolve("whole");
        try (OutputStream out = Files.newOutputStream(whole);
                DeltaWriter writer = new DeltaWriter(out)) {
            OffsetDateTime time = OffsetDateTime.parse("2024-05-01T10:20:30Z");
            for (int revision = 100; revision <= 110; revision++) {
                byte[] key = ("/registry/pods/p" + revision).getBytes(StandardCharsets.UTF_8);
                writer.write(DeltaEvent.put(
                        key,
                        ("value-" + revision).getBytes(StandardCharsets.UTF_8),
                        revision,
                        revision,
                        1,
                        0,
                        time.plusSeconds(revision)));
            }
        }
        byte[] written = Files.readAllBytes(whole);
        byte[] json = Arrays.copyOf(written, written.length - TRAILER);
        assertThat(DeltaBytes.sha256(json)).isEqualTo(Arrays.copyOfRange(written, json.length, written.length));
        assertThat(json[json.length - 1]).isEqualTo((byte) ']');
        return json;
    }

    private Path writeFile(String name, byte[] content, byte[] trailer) throws IOException {
        Path file = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(content);
            out.write(trailer);
        }
        return file;
    }

    private static void decode(Path delta) throws IOException, InterruptedException {
        try (InputStream in = Files.newInputStream(delta)) {
            DeltaDecoder.verify(delta.getFileName().toString(), in);
        }
    }
}
