package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.format.codec.Compression;
import io.etcdworkers.testsupport.GeneratedBucket;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The tests' bucket generator writes deltas from docs/bucket-format.md on its own, not with
 * {@link DeltaWriter}: the name parses as the delta it is, the decoder reads every event back,
 * and {@link DeltaWriter} writing those events gives the very same bytes. Two writers built
 * apart agreeing is what lets the generator be the tests' independent source of deltas.
 */
class GeneratedBucketDeltaTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(GeneratedBucket.Compression.class)
    void theGeneratorWritesWhatTheWorkerReadsAndWritesByteForByte(GeneratedBucket.Compression codec) throws Exception {
        GeneratedBucket bucket =
                GeneratedBucket.create(dir.resolve("bucket"), codec, 42).withSeedKeys();
        String seedKey = bucket.liveKeys().stream().sorted().findFirst().orElseThrow();
        bucket.put("/registry/new", 40)
                .put("/registry/new", 0)
                .putWithLease("/registry/leased", 10, 0x7001)
                .transaction(List.of("/registry/t1", "/registry/t2", seedKey), List.of("/registry/new"), 100)
                .delete("/registry/leased");

        String key = bucket.cutDelta();

        SnapshotName name =
                SnapshotName.parse(Path.of(key).getFileName().toString()).orElseThrow();
        assertThat(name.kind()).isEqualTo(SnapshotKind.DELTA);
        assertThat(name.startRevision()).isEqualTo(602);
        assertThat(name.lastRevision()).isEqualTo(606).isEqualTo(bucket.revision());
        Compression compression = name.compression().orElseThrow();
        byte[] written;
        try (InputStream in =
                compression.decompress(Files.newInputStream(bucket.root().resolve(key)))) {
            written = in.readAllBytes();
        }
        List<DeltaEvent> events = new ArrayList<>();
        DeltaSummary summary =
                DeltaDecoder.decode(key, new ByteArrayInputStream(written), group -> events.addAll(group.events()));

        assertThat(summary.events()).isEqualTo(8);
        assertThat(summary.revisions()).isEqualTo(5);
        assertThat(events)
                .extracting(e -> e.type() + " " + new String(e.key(), StandardCharsets.UTF_8) + " " + e.createRevision()
                        + "/" + e.modRevision() + "/" + e.version() + "/" + e.lease() + " " + e.value().length)
                .containsExactly(
                        "PUT /registry/new 602/602/1/0 40",
                        "PUT /registry/new 602/603/2/0 0",
                        "PUT /registry/leased 604/604/1/28673 10",
                        "PUT /registry/t1 605/605/1/0 " + events.get(3).value().length,
                        "PUT /registry/t2 605/605/1/0 " + events.get(4).value().length,
                        "PUT " + seedKey + " " + events.get(5).createRevision() + "/605/2/0 "
                                + events.get(5).value().length,
                        "DELETE /registry/new 0/605/0/0 0",
                        "DELETE /registry/leased 0/606/0/0 0");
        ByteArrayOutputStream rewritten = new ByteArrayOutputStream();
        try (DeltaWriter writer = new DeltaWriter(rewritten)) {
            for (DeltaEvent event : events) {
                writer.write(event);
            }
        }
        assertThat(new String(written, StandardCharsets.ISO_8859_1))
                .isEqualTo(new String(rewritten.toByteArray(), StandardCharsets.ISO_8859_1));
    }
}
