package io.etcdworkers.format.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Go's own {@code .Z} objects, written by etcdbrctl v0.23.0: the proof of compatibility. */
class LzwFixtureTest {

    static List<String> objectNames() {
        return EtcdbrFixtures.objectNames();
    }

    @ParameterizedTest
    @MethodSource("objectNames")
    void decodesGoWrittenObject(String name) throws IOException {
        byte[] decoded = decode(EtcdbrFixtures.read("lzw", name + ".Z"));

        assertThat(EtcdbrFixtures.hashTrailerMatches(decoded))
                .as("trailing SHA-256 of %s", name)
                .isTrue();
        assertThat(EtcdbrFixtures.comparableContent(name, decoded))
                .isEqualTo(EtcdbrFixtures.comparableContent(name, EtcdbrFixtures.read("plain", name)));
    }

    /** Compressing what Go compressed must give Go's bytes: same codes, widths, clears, padding. */
    @ParameterizedTest
    @MethodSource("objectNames")
    void writerReproducesGoWrittenObjectByteForByte(String name) throws IOException {
        byte[] goCompressed = EtcdbrFixtures.read("lzw", name + ".Z");
        byte[] original = decode(goCompressed);

        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (LzwOutputStream out = new LzwOutputStream(sink)) {
            out.write(original);
        }

        byte[] ours = sink.toByteArray();
        assertThat(Arrays.mismatch(ours, goCompressed))
                .as("first differing byte (-1: none)")
                .isEqualTo(-1);
    }

    private static byte[] decode(byte[] compressed) throws IOException {
        try (LzwInputStream in = new LzwInputStream(new ByteArrayInputStream(compressed))) {
            return in.readAllBytes();
        }
    }
}
