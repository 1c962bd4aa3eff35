package io.etcdworkers.bolt;

import static io.etcdworkers.bolt.BoltFixtures.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.testsupport.ExpectedState;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** BoltReader on every real etcd full snapshot of the fixtures (etcd 3.4.23 via etcdbrctl). */
class BoltFixtureReadTest {
    @TempDir
    Path tmp;

    static List<Path> fullSnapshots() {
        return BoltFixtures.fullSnapshots();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fullSnapshots")
    void readsEveryBucketOfTheFixture(Path full) throws Exception {
        Path db = BoltFixtures.decompress(full, tmp);
        try (BoltReader reader = BoltReader.open(db)) {
            assertThat(reader.pageSize()).isEqualTo(4096);
            // the file is the database plus a 32-byte SHA-256 trailer the reader must not need
            assertThat(Files.size(db)).isEqualTo(reader.highWaterMark() * 4096 + 32);
            List<String> names = new ArrayList<>();
            for (byte[] name : reader.bucketNames()) {
                names.add(new String(name, StandardCharsets.UTF_8));
                assertThat(reader.hasBucket(name)).isTrue();
                long[] entries = {0};
                reader.forEach(name, (k, v, isBucket) -> {
                    assertThat(isBucket).isFalse();
                    assertThat(v).isNotNull();
                    entries[0]++;
                });
            }
            assertThat(names).containsAll(BoltFixtures.ETCD_BUCKETS).isSorted();
            assertThat(reader.hasBucket(bytes("no-such-bucket"))).isFalse();

            PageUsage usage = reader.checkPages();
            assertThat(reader.hasFreelist()).isFalse(); // etcd runs bbolt with NoFreelistSync
            assertThat(usage.unaccounted()).isGreaterThanOrEqualTo(0);
            assertThat(2 + usage.treePages() + usage.unaccounted()).isEqualTo(reader.highWaterMark());
            assertThat(usage.buckets()).isEqualTo(names.size() + 1);

            BoltFixtures.KeyBucket keys = BoltFixtures.KeyBucket.read(reader);
            long last = BoltFixtures.lastRevision(full);
            JsonNode checkpoint = checkpoint(last);
            assertThat(keys.live()).hasSize(checkpoint.get("keys").asInt());
            // etcdbrctl made the compacted snapshot by a replay that drops lease ids (fixture README)
            String digest = last == 601 ? "meta_sha256" : "meta_nolease_sha256";
            assertThat(keys.metaSha256()).isEqualTo(checkpoint.get(digest).asText());
            if (last == 601) {
                // the seed phase: one put per revision 2..601, nothing compacted
                assertThat(keys.mainRevisions())
                        .containsExactlyElementsOf(
                                LongStream.rangeClosed(2, 601).boxed().toList());
            } else {
                // compacted at 3656: only the newest revision of each live key is left
                assertThat(keys.mainRevisions()).hasSize(keys.live().size());
                byte[][] compacted = {null};
                reader.forEach(bytes("meta"), (k, v, b) -> {
                    if (new String(k, StandardCharsets.UTF_8).equals("finishedCompactRev")) {
                        compacted[0] = v;
                    }
                });
                assertThat(ByteBuffer.wrap(compacted[0]).getLong()).isEqualTo(3656);
            }
        }
    }

    private static JsonNode checkpoint(long revision) {
        for (JsonNode c : ExpectedState.stateJson().get("checkpoints_source")) {
            if (c.get("revision").asLong() == revision) {
                return c;
            }
        }
        throw new AssertionError("no checkpoint at " + revision);
    }
}
