package io.etcdworkers.rebuild.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.KeyValue;
import io.etcdworkers.bolt.BoltFiles;
import io.etcdworkers.bolt.BoltReader;
import io.etcdworkers.bolt.BoltWriter;
import io.etcdworkers.bolt.BucketWriter;
import io.etcdworkers.etcd.EmbeddedEtcd;
import io.etcdworkers.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.etcd.EtcdGrpcClient;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.etcd.SnapshotRestorer;
import io.etcdworkers.etcd.schema.Bucket;
import io.etcdworkers.etcd.schema.Revision;
import io.etcdworkers.rebuild.verify.KeyBounds;
import io.etcdworkers.rebuild.verify.KeyspaceRead;
import io.etcdworkers.rebuild.verify.VerifyScope;
import io.etcdworkers.rebuild.verify.WrittenKeys;
import io.etcdworkers.rebuild.verify.WrittenKeyspaceCheck;
import io.etcdworkers.testsupport.EtcdTestEnvironment;
import io.etcdworkers.testsupport.Fixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The offline engine's verification against a real etcd: it passes on the database the fold
 * wrote, in both scopes, and it fails on each broken link: a file that is not what the fold
 * computed (one key byte changed, as a faulty writer would, then opened by etcd), and an etcd that did not open the
 * file that was read.
 */
@Timeout(180)
class WrittenKeyspaceCheckIT {
    private static final long REVISION = 3656;

    @TempDir
    Path dir;

    private interface WithEtcd {
        void run(EtcdGrpcClient client) throws Exception;
    }

    private void onEtcd(Path database, String name, WithEtcd body) throws Exception {
        EtcdMember member = EtcdMember.onFreeLoopbackPort();
        Path data = dir.resolve(name + ".etcd");
        EtcdBinaries binaries =
                EtcdBinaries.locate(Optional.of(EtcdTestEnvironment.onPath().binDir()), "");
        new SnapshotRestorer(binaries, dir.resolve("scratch-" + name), Duration.ofMinutes(2))
                .restore(new SnapshotRestorer.Request(database, member, data, Optional.empty(), false));
        try (EmbeddedEtcd etcd = EmbeddedEtcd.start(
                        EmbeddedEtcdConfig.defaults(binaries, member, data, dir.resolve("etcd-" + name)));
                EtcdGrpcClient client = EtcdGrpcClient.connect(etcd.clientEndpoint(), Duration.ofSeconds(30))) {
            body.run(client);
        }
    }

    private static KeyspaceRead check(EtcdGrpcClient client, OfflineResult f, WrittenKeys written, VerifyScope scope)
            throws WrittenKeyspaceCheck.Mismatch {
        return WrittenKeyspaceCheck.check(
                client, REVISION, f.expected(), f.sums(), f.bounds(), written, scope, new Random(1));
    }

    @Test
    void theFoldsDatabasePassesInBothScopesAndAnotherFilesHashDoesNot() throws Exception {
        OfflineResult folded = FixtureFold.fold(Fixtures.bucket("lzw"), dir);
        WrittenKeys written = WrittenKeys.read(folded.database());
        onEtcd(folded.database(), "good", client -> {
            KeyspaceRead sample = check(client, folded, written, VerifyScope.SAMPLE);
            assertThat(sample.scope()).isEqualTo(VerifyScope.SAMPLE);
            assertThat(sample.digest()).isEqualTo(folded.expected());
            assertThat(sample.hashKv()).hasValue(written.hashKvUnsigned());
            assertThat(Integer.toUnsignedLong(client.hashKv(0).getHash())).isEqualTo(written.hashKvUnsigned());

            KeyspaceRead all = check(client, folded, written, VerifyScope.ALL);
            assertThat(all.scope()).isEqualTo(VerifyScope.ALL);
            assertThat(all.cost().keysRead()).isEqualTo(folded.expected().keys());
            assertThat(all.digest().sameKeyspace(folded.expected())).isTrue();

            WrittenKeys otherFile = new WrittenKeys(written.hashKv() ^ 1, written.sum(), written.entries());
            assertThatThrownBy(() -> check(client, folded, otherFile, VerifyScope.SAMPLE))
                    .isInstanceOf(WrittenKeyspaceCheck.Mismatch.class)
                    .hasMessageContaining("HashKV");
        });
    }

    @Test
    void aSampledRangeServedOtherwiseThanTheFoldSummedItFails() throws Exception {
        OfflineResult folded = FixtureFold.fold(Fixtures.bucket("lzw"), dir);
        WrittenKeys written = WrittenKeys.read(folded.database());
        List<KeyBounds.KeyRange> ranges = folded.bounds().ranges();
        assertThat(ranges).as("the fixture's keyspace makes several ranges").hasSizeGreaterThan(2);
        // the last range starts one key later: that key moves into the range before it, the total
        // is unchanged. The fixture makes three ranges, all sampled, walked at once; the first
        // mismatch in range order is the one reported
        List<byte[]> shifted = new ArrayList<>();
        for (int i = 1; i < ranges.size(); i++) {
            shifted.add(ranges.get(i).from().toByteArray());
        }
        byte[] last = shifted.get(shifted.size() - 1);
        shifted.set(shifted.size() - 1, Arrays.copyOf(last, last.length + 1));
        KeyBounds moved = KeyBounds.of(shifted);
        onEtcd(
                folded.database(),
                "ranges",
                client -> assertThatThrownBy(() -> WrittenKeyspaceCheck.check(
                                client,
                                REVISION,
                                folded.expected(),
                                folded.sums(),
                                moved,
                                written,
                                VerifyScope.SAMPLE,
                                new Random(1)))
                        .isInstanceOf(WrittenKeyspaceCheck.Mismatch.class)
                        .hasMessageContaining("etcd serves range " + (ranges.size() - 1) + " of " + ranges.size()));
    }

    @Test
    void aFileThatIsNotWhatTheFoldComputedFailsThoughEtcdServesIt() throws Exception {
        OfflineResult folded = FixtureFold.fold(Fixtures.bucket("lzw"), dir);
        byte[] db = Files.readAllBytes(folded.database());
        byte[] marker = "/registry/".getBytes(StandardCharsets.US_ASCII);
        int at = FixtureFold.indexOf(db, marker, db.length / 2);
        db[at + marker.length + 1] ^= 0x01; // one character of one key, the proto still valid
        Path tampered = dir.resolve("tampered.db");
        // as a writer that wrote the wrong bytes would: with a trailer that matches them
        Files.write(tampered, Arrays.copyOf(db, db.length - 32));
        BoltFiles.appendSha256Trailer(tampered);
        WrittenKeys written = WrittenKeys.read(tampered);

        onEtcd(tampered, "tampered", client -> {
            // etcd opens exactly that file: its hash agrees with the file, the fold's sum does not
            assertThat(Integer.toUnsignedLong(client.hashKv(0).getHash())).isEqualTo(written.hashKvUnsigned());
            assertThatThrownBy(() -> check(client, folded, written, VerifyScope.SAMPLE))
                    .isInstanceOf(WrittenKeyspaceCheck.Mismatch.class)
                    .hasMessageContaining("database file holds");
        });
    }

    /**
     * What lets the hash stand for a count: in a database compacted at its last revision etcd
     * hashes only the entries its index keeps as a key's latest. A second, older entry for one
     * key is in the file's CRC but not in etcd's.
     */
    @Test
    void anOlderSecondEntryForOneKeyIsHashedByTheFileButNotByEtcd() throws Exception {
        OfflineResult folded = FixtureFold.fold(Fixtures.bucket("lzw"), dir);
        Path doubled = dir.resolve("doubled.db");
        TreeMap<byte[], byte[]> keys = new TreeMap<>(Arrays::compareUnsigned);
        try (BoltReader good = BoltReader.open(folded.database());
                BoltWriter out = BoltWriter.create(doubled, CompactedDatabase.PAGE_SIZE)) {
            good.forEach(Bucket.KEY.bytes(), (k, v, isBucket) -> keys.put(k, v));
            long unused = 1;
            while (keys.containsKey(new Revision(unused, 0).bytes())) {
                unused++;
            }
            KeyValue some = KeyValue.parseFrom(keys.lastEntry().getValue());
            keys.put(
                    new Revision(unused, 0).bytes(),
                    some.toBuilder()
                            .setCreateRevision(unused)
                            .setModRevision(unused)
                            .setVersion(1)
                            .setValue(ByteString.copyFromUtf8("older"))
                            .build()
                            .toByteArray());
            for (byte[] name : good.bucketNames()) {
                try (BucketWriter bucket = out.bucket(name)) {
                    if (Bucket.KEY.is(name)) {
                        for (var e : keys.entrySet()) {
                            bucket.put(e.getKey(), e.getValue());
                        }
                    } else {
                        bucket.setSequence(good.sequence(List.of(name)));
                        good.forEach(name, (k, v, isBucket) -> bucket.put(k, v));
                    }
                }
            }
            out.finish();
        }
        BoltFiles.appendSha256Trailer(doubled);
        WrittenKeys written = WrittenKeys.read(doubled);
        assertThat(written.entries()).isEqualTo(folded.expected().keys() + 1);

        onEtcd(doubled, "doubled", client -> {
            assertThat(client.hashKv(0).getCompactRevision()).isEqualTo(REVISION);
            assertThat(Integer.toUnsignedLong(client.hashKv(0).getHash())).isNotEqualTo(written.hashKvUnsigned());
        });
    }
}
