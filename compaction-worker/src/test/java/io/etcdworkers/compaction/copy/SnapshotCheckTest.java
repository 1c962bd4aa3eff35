package io.etcdworkers.compaction.copy;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.format.SnapshotName;
import io.etcdworkers.testsupport.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every object of the etcdbrctl-written fixtures passes copy's check, which covers every stored byte:
 * the length and SHA-256 it reports are the file's, however much of it the snapshot's reader consumed
 * (gzip full snapshots carry bytes after the end of their compressed stream).
 */
@Timeout(60)
class SnapshotCheckTest {
    static Stream<Path> objects() throws IOException {
        List<Path> buckets = List.of(
                Fixtures.bucket(Fixtures.V0_41_2, "gzip"),
                Fixtures.bucket(Fixtures.V0_23_0, "gzip"),
                Fixtures.bucket(Fixtures.V0_23_0, "zlib"),
                Fixtures.bucket(Fixtures.V0_23_0, "lzw"),
                Fixtures.bucket(Fixtures.V0_23_0, "plain"));
        return buckets.stream().flatMap(bucket -> {
            try (Stream<Path> files = Files.list(bucket.resolve("v2"))) {
                return files.sorted().toList().stream();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("objects")
    void everyFixtureObjectChecksWithItsOwnLengthAndHash(Path object) throws Exception {
        String file = object.getFileName().toString();
        SnapshotName name = SnapshotName.parse(file).orElseThrow();

        SnapshotCheck.Checked checked;
        try (InputStream in = Files.newInputStream(object)) {
            checked = SnapshotCheck.check(file, name, in);
        }

        byte[] bytes = Files.readAllBytes(object);
        assertThat(checked.size()).isEqualTo(bytes.length);
        assertThat(checked.sha256())
                .isEqualTo(HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
    }
}
