package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.files.ValueFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DecodedDeltaFileTest {
    private static final OffsetDateTime T = OffsetDateTime.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path dir;

    @Test
    void groupsComeBackAsWrittenEachEventWithItsGroupsLatestTime() throws IOException {
        OffsetDateTime later = OffsetDateTime.parse("2026-01-01T01:00:00.123456789+01:00");
        List<RevisionGroup> groups = List.of(
                new RevisionGroup(7, List.of(DeltaEvent.put(b("a"), b("value"), 5, 7, 3, 0x7a, T))),
                new RevisionGroup(
                        8,
                        List.of(
                                DeltaEvent.put(b("b"), new byte[0], 8, 8, 1, 0, T),
                                DeltaEvent.delete(b("a"), 8, later),
                                DeltaEvent.put(new byte[] {(byte) 0xff, 0}, new byte[70_000], 8, 8, 1, 0, T))));
        Path file = dir.resolve("d.decoded");
        try (DecodedDeltaFile.Writer out = new DecodedDeltaFile.Writer(file)) {
            for (RevisionGroup g : groups) {
                out.write(g);
            }
            out.finish();
        }

        assertThat(Files.size(DecodedDeltaFile.valuesOf(file)))
                .as("the values, beside the events")
                .isEqualTo("value".length() + 70_000);
        List<RevisionGroup> read = new ArrayList<>();
        try (ValueFile values = ValueFile.open(DecodedDeltaFile.valuesOf(file));
                DecodedDeltaFile.Reader in = new DecodedDeltaFile.Reader(file, values)) {
            RevisionGroup g;
            while ((g = in.next()) != null) {
                read.add(g);
            }
            // each PUT with a value points into the value file; read while it is open
            assertThat(read.get(0).events().get(0).stored().offset()).isZero();
            assertThat(read.get(1).events().get(2).stored().offset()).isEqualTo("value".length());
            assertThat(read.get(1).events().get(0).stored())
                    .as("an empty value is not stored")
                    .isNull();
            assertThat(read.get(1).events().get(1).stored())
                    .as("a delete has no value")
                    .isNull();
            compare(groups, read);
        }
        assertThat(read).hasSize(2);
        assertThat(read.get(1).time()).as("offset and nanos kept").isEqualTo(later);
    }

    private static void compare(List<RevisionGroup> groups, List<RevisionGroup> read) {
        assertThat(read).hasSize(2);
        for (int i = 0; i < groups.size(); i++) {
            assertThat(read.get(i).revision()).isEqualTo(groups.get(i).revision());
            List<DeltaEvent> expected = groups.get(i).events();
            List<DeltaEvent> actual = read.get(i).events();
            assertThat(actual).hasSameSizeAs(expected);
            for (int e = 0; e < expected.size(); e++) {
                DeltaEvent x = expected.get(e);
                assertThat(actual.get(e))
                        .isEqualTo(new DeltaEvent(
                                x.type(),
                                x.key(),
                                x.value(),
                                x.createRevision(),
                                x.modRevision(),
                                x.version(),
                                x.lease(),
                                groups.get(i).time()));
            }
        }
    }

    @Test
    void aFileCutShortOrNeverFinishedIsAnErrorNotAnEnd() throws IOException {
        Path file = dir.resolve("d.decoded");
        try (DecodedDeltaFile.Writer out = new DecodedDeltaFile.Writer(file)) {
            out.write(new RevisionGroup(7, List.of(DeltaEvent.put(b("a"), b("v"), 7, 7, 1, 0, T))));
        }
        try (ValueFile values = ValueFile.open(DecodedDeltaFile.valuesOf(file));
                DecodedDeltaFile.Reader in = new DecodedDeltaFile.Reader(file, values)) {
            assertThat(in.next()).isNotNull();
            assertThatThrownBy(in::next).isInstanceOf(IOException.class).hasMessageContaining("ends early");
        }
        // (closing a value file removes it: write the delta again, and cut its events)
        try (DecodedDeltaFile.Writer out = new DecodedDeltaFile.Writer(file)) {
            out.write(new RevisionGroup(7, List.of(DeltaEvent.put(b("a"), b("v"), 7, 7, 1, 0, T))));
        }
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length - 3));
        try (ValueFile values = ValueFile.open(DecodedDeltaFile.valuesOf(file));
                DecodedDeltaFile.Reader in = new DecodedDeltaFile.Reader(file, values)) {
            assertThatThrownBy(in::next).isInstanceOf(IOException.class).hasMessageContaining("ends early");
        }
    }

    @Test
    void aValueFileCutShortIsAnErrorNotAShorterValue() throws IOException {
        Path file = dir.resolve("d.decoded");
        try (DecodedDeltaFile.Writer out = new DecodedDeltaFile.Writer(file)) {
            out.write(new RevisionGroup(7, List.of(DeltaEvent.put(b("a"), b("value"), 7, 7, 1, 0, T))));
            out.write(new RevisionGroup(8, List.of(DeltaEvent.put(b("b"), b("other"), 8, 8, 1, 0, T))));
            out.finish();
        }
        Path values = DecodedDeltaFile.valuesOf(file);
        Files.write(values, Arrays.copyOf(Files.readAllBytes(values), 7));
        try (ValueFile v = ValueFile.open(values);
                DecodedDeltaFile.Reader in = new DecodedDeltaFile.Reader(file, v)) {
            RevisionGroup first = in.next();
            assertThat(first.events().get(0).value()).isEqualTo(b("value"));
            DeltaEvent second = in.next().events().get(0);
            assertThatThrownBy(() -> second.stored().read())
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("holds 7 bytes");
            assertThatThrownBy(in::next).isInstanceOf(IOException.class).hasMessageContaining("were cut");
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
