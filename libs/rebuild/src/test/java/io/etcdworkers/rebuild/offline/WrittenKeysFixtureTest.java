package io.etcdworkers.rebuild.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.bolt.BoltFormatException;
import io.etcdworkers.bolt.BoltWriter;
import io.etcdworkers.bolt.BucketWriter;
import io.etcdworkers.etcd.schema.Bucket;
import io.etcdworkers.etcd.schema.Revision;
import io.etcdworkers.rebuild.verify.WrittenKeys;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file side of the offline verification on a bucket etcdbrctl wrote: read back from the
 * database the fold wrote, the key bucket hashes to the {@code HashKV} a real etcd reported for
 * the same keyspace compacted at the last revision (recorded with the fixture), and its entries
 * sum to what the fold computed.
 */
class WrittenKeysFixtureTest {
    @TempDir
    Path dir;

    @Test
    void theWrittenKeyBucketHashesAsEtcdHashedTheCompactedSourceAndSumsAsTheFold() throws Exception {
        OfflineResult folded = FixtureFold.fold(Fixtures.bucket(Fixtures.V0_41_2, "gzip"), dir);
        JsonNode state = ExpectedState.stateJson(Fixtures.V0_41_2);

        WrittenKeys written = WrittenKeys.read(folded.database());

        assertThat(written.hashKvUnsigned())
                .isEqualTo(state.get("hashkv_of_a_restore_compacted_at_3783")
                        .get("hash")
                        .asLong());
        assertThat(written.entries())
                .isEqualTo(state.get("keys").asLong())
                .isEqualTo(folded.expected().keys());
        assertThat(written.sum()).isEqualTo(folded.sums().total());
        assertThat(folded.sums().size()).isEqualTo(folded.bounds().size() + 1);
    }

    @Test
    void aValueChangedInTheFileChangesItsSumButNotItsEntries() throws Exception {
        OfflineResult folded = FixtureFold.fold(Fixtures.bucket(Fixtures.V0_41_2, "gzip"), dir);
        byte[] db = Files.readAllBytes(folded.database());
        // a value byte of some key: the fixture's values are text, find one by its key's prefix
        byte[] marker = "/registry/".getBytes(StandardCharsets.US_ASCII);
        int at = FixtureFold.indexOf(db, marker, db.length / 2);
        db[at + 12] ^= 0x01;
        Path tampered = dir.resolve("tampered.db");
        Files.write(tampered, db);

        WrittenKeys written = WrittenKeys.read(tampered);

        assertThat(written.entries()).isEqualTo(folded.expected().keys());
        assertThat(written.sum()).isNotEqualTo(folded.sums().total());
        assertThat(written.hashKv())
                .isNotEqualTo(WrittenKeys.read(folded.database()).hashKv());
    }

    @Test
    void aFileWithoutAKeyBucketIsRefused() throws Exception {
        Path empty = dir.resolve("not-a-db");
        Files.write(empty, new byte[8192]);
        assertThatThrownBy(() -> WrittenKeys.read(empty)).isInstanceOf(BoltFormatException.class);
    }

    @Test
    void aKeyEntryThatIsNoKeyValueOrNoLiveRevisionIsRefused() throws Exception {
        Path garbage = dir.resolve("garbage.db");
        writeKeyBucket(garbage, new Revision(5, 0).bytes(), new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff});
        assertThatThrownBy(() -> WrittenKeys.read(garbage))
                .isInstanceOf(com.google.protobuf.InvalidProtocolBufferException.class);

        Path tombstone = dir.resolve("tombstone.db");
        writeKeyBucket(tombstone, Arrays.copyOf(new Revision(5, 0).bytes(), 18), new byte[0]);
        assertThatThrownBy(() -> WrittenKeys.read(tombstone))
                .isInstanceOf(BoltFormatException.class)
                .hasMessageContaining("no live revision");
    }

    private static void writeKeyBucket(Path file, byte[] key, byte[] value) throws IOException {
        try (BoltWriter out = BoltWriter.create(file, CompactedDatabase.PAGE_SIZE)) {
            try (BucketWriter keys = out.bucket(Bucket.KEY.bytes())) {
                keys.put(key, value);
            }
            out.finish();
        }
    }
}
