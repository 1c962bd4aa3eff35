package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DeltaWriterTest {

    @Test
    void reproducesTheSpecTestVectorByteForByte() throws Exception {
        byte[] key = "/registry/foo".getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DeltaWriter writer = new DeltaWriter(out)) {
            writer.write(DeltaEvent.put(
                    key,
                    "bar".getBytes(StandardCharsets.UTF_8),
                    101,
                    101,
                    1,
                    0,
                    OffsetDateTime.parse("2024-05-01T10:20:30.123456789Z")));
            writer.write(DeltaEvent.delete(key, 102, OffsetDateTime.parse("2024-05-01T10:20:31.500Z")));
        }

        assertThat(out.toByteArray()).isEqualTo(DeltaBytes.withHash(DeltaBytes.VECTOR_JSON));
    }

    @ParameterizedTest
    @CsvSource({
        "2024-05-01T10:20:30Z, 2024-05-01T10:20:30Z",
        "2024-05-01T10:20:30.100Z, 2024-05-01T10:20:30.1Z",
        "2024-05-01T10:20:30.000000001Z, 2024-05-01T10:20:30.000000001Z",
        "2024-05-01T10:20:30.5+02:00, 2024-05-01T10:20:30.5+02:00",
        "0099-01-02T03:04:05-05:30, 0099-01-02T03:04:05-05:30"
    })
    void timesAreFormattedAsGoMarshalsThem(String input, String expected) {
        assertThat(GoTimeFormat.format(OffsetDateTime.parse(input))).isEqualTo(expected);
    }

    @Test
    void randomDeltasRoundTripThroughTheDecoder() throws Exception {
        Random random = new Random(42);
        List<DeltaEvent> written = new ArrayList<>();
        long revision = 1000;
        for (int i = 0; i < 2000; i++) {
            revision += random.nextInt(3) == 0 ? 0 : 1;
            byte[] key = ("/registry/k/" + random.nextInt(300)).getBytes(StandardCharsets.UTF_8);
            OffsetDateTime time = OffsetDateTime.parse("2024-05-01T10:20:30Z").plusNanos(random.nextInt(1_000_000_000));
            if (random.nextInt(5) == 0) {
                written.add(DeltaEvent.delete(key, revision, time));
            } else {
                byte[] value = new byte[random.nextInt(3) == 0 ? 0 : random.nextInt(4096)];
                random.nextBytes(value);
                written.add(DeltaEvent.put(
                        key,
                        value,
                        revision - random.nextInt(50),
                        revision,
                        1 + random.nextInt(40),
                        random.nextBoolean() ? 0 : random.nextLong(),
                        time));
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DeltaWriter writer = new DeltaWriter(out)) {
            for (DeltaEvent e : written) {
                writer.write(e);
            }
        }

        List<DeltaEvent> read = new ArrayList<>();
        DeltaSummary summary = DeltaDecoder.decode(
                "Incr-roundtrip", new ByteArrayInputStream(out.toByteArray()), group -> read.addAll(group.events()));

        assertThat(read).isEqualTo(written);
        assertThat(summary.events()).isEqualTo(written.size());
        assertThat(summary.lastRevision()).isEqualTo(revision);
    }
}
