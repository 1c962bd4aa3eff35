package io.etcdworkers.restore.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.bolt.BoltFormatException;
import io.etcdworkers.restore.bolt.BoltWriter;
import io.etcdworkers.restore.bolt.BucketWriter;
import io.etcdworkers.restore.engine.EngineSettings;
import io.etcdworkers.restore.snapshot.FullSnapshotReader;
import io.etcdworkers.restore.snapshot.SnapshotCatalog;
import io.etcdworkers.restore.snapshot.SnapshotSelection;
import io.etcdworkers.restore.snapshot.SnapshotStreams;
import io.etcdworkers.restore.store.LocalDirectoryStore;
import io.etcdworkers.restore.verify.WrittenKeys;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
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

    private OfflineResult fold() throws Exception {
        LocalDirectoryStore store = new LocalDirectoryStore(Fixtures.bucket(Fixtures.V0_41_2, "gzip"));
        SnapshotSelection selection = SnapshotCatalog.load(store, "").select();
        Path base = dir.resolve("base.db");
        try (InputStream in = SnapshotStreams.openDecompressed(store, selection.base());
                OutputStream out = Files.newOutputStream(base)) {
            FullSnapshotReader.copy(selection.base().key(), in, out, false);
        }
        return new FoldWriter(store, EngineSettings.defaults(), Clock.systemUTC())
                .build(selection, base, Files.createDirectories(dir.resolve("work")), dir.resolve("offline.db"));
    }

    @Test
    void theWrittenKeyBucketHashesAsEtcdHashedTheCompactedSourceAndSumsAsTheFold() throws Exception {
        OfflineResult folded = fold();
        JsonNode state = ExpectedState.stateJson(Fixtures.V0_41_2);

        WrittenKeys written = WrittenKeys.read(folded.database());

        assertThat(written.hashKvUnsigned())
                .isEqualTo(state.get("hashkv_of_a_restore_compacted_at_3783").get("hash").asLong());
        assertThat(written.entries()).isEqualTo(state.get("keys").asLong()).isEqualTo(folded.expected().keys());
        assertThat(written.sum()).isEqualTo(folded.sums().total());
        assertThat(folded.sums().size()).isEqualTo(folded.bounds().size() + 1);
    }

    @Test
    void aValueChangedInTheFileChangesItsSumButNotItsEntries() throws Exception {
        OfflineResult folded = fold();
        byte[] db = Files.readAllBytes(folded.database());
        // a value byte of some key: the fixture's values are text, find one by its key's prefix
        int at = indexOf(db, "/registry/".getBytes(java.nio.charset.StandardCharsets.US_ASCII), db.length / 2);
        db[at + 12] ^= 0x01;
        Path tampered = dir.resolve("tampered.db");
        Files.write(tampered, db);

        WrittenKeys written = WrittenKeys.read(tampered);

        assertThat(written.entries()).isEqualTo(folded.expected().keys());
        assertThat(written.sum()).isNotEqualTo(folded.sums().total());
        assertThat(written.hashKv()).isNotEqualTo(WrittenKeys.read(folded.database()).hashKv());
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
        writeKeyBucket(garbage, EtcdSchema.revision(5, 0), new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff});
        assertThatThrownBy(() -> WrittenKeys.read(garbage))
                .isInstanceOf(com.google.protobuf.InvalidProtocolBufferException.class);

        Path tombstone = dir.resolve("tombstone.db");
        writeKeyBucket(tombstone, java.util.Arrays.copyOf(EtcdSchema.revision(5, 0), 18), new byte[0]);
        assertThatThrownBy(() -> WrittenKeys.read(tombstone)).isInstanceOf(BoltFormatException.class)
                .hasMessageContaining("no live revision");
    }

    private static void writeKeyBucket(Path file, byte[] key, byte[] value) throws java.io.IOException {
        try (BoltWriter out = BoltWriter.create(file, CompactedDatabase.PAGE_SIZE)) {
            try (BucketWriter keys = out.bucket(EtcdSchema.KEY_BUCKET)) {
                keys.put(key, value);
            }
            out.finish();
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = from; i + needle.length + 16 < haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("no key after offset " + from);
    }
}
