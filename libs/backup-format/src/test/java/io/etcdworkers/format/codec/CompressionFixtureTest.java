package io.etcdworkers.format.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every object of the four real buckets decodes, through the suffix in its name, to the plain content. */
class CompressionFixtureTest {

    static Stream<Arguments> objects() {
        List<String> names = EtcdbrFixtures.objectNames();
        return Stream.of(Compression.values()).flatMap(c -> names.stream().map(name -> Arguments.of(c, name)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("objects")
    void decodesToThePlainContent(Compression compression, String name) throws IOException {
        String bucket = compression == Compression.NONE ? "plain" : compression.policyName();
        String objectName = name + compression.suffix();
        assertThat(Compression.fromSuffix(compression.suffix())).contains(compression);

        byte[] decoded;
        try (InputStream in =
                compression.decompress(new ByteArrayInputStream(EtcdbrFixtures.read(bucket, objectName)))) {
            decoded = in.readAllBytes();
        }

        assertThat(EtcdbrFixtures.hashTrailerMatches(decoded))
                .as("trailing SHA-256 of %s", objectName)
                .isTrue();
        assertThat(EtcdbrFixtures.comparableContent(name, decoded))
                .isEqualTo(EtcdbrFixtures.comparableContent(name, EtcdbrFixtures.read("plain", name)));
    }
}
