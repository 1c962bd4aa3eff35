package io.etcdworkers.bolt;

import static io.etcdworkers.bolt.BoltFixtures.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.etcd.EmbeddedEtcd;
import io.etcdworkers.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.etcd.EtcdGrpcClient;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.etcd.SnapshotRestorer;
import io.etcdworkers.rebuild.verify.KeyspaceDigest;
import io.etcdworkers.testsupport.EtcdTestEnvironment;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.SnapshotStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real etcd 3.4 accepts what BoltWriter writes: a fixture base copied bucket by bucket through
 * BoltReader and BoltWriter passes {@code etcdctl snapshot status} with the original's numbers,
 * restores with {@code etcdctl snapshot restore} (hash trailer checked), and serves the same
 * keyspace and leases as the original, before and after etcd's own defragmentation.
 */
@Timeout(300)
class BoltEtcdIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration CALL = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(
            strings = {"plain/v2/Full-00000000-00000601-1795986606", "compacted/v2/Full-00000000-00003656-1795986628"})
    void etcdServesTheRewrittenSnapshotLikeTheOriginal(String object) throws Exception {
        Path original = BoltFixtures.decompress(Fixtures.root().resolve(object), tmp);
        Path ours = tmp.resolve("ours.db");
        copyAllBuckets(original, ours);
        BoltFiles.appendSha256Trailer(ours);
        assertThat(Files.size(ours) % 512).isEqualTo(32);

        // (a) etcdctl snapshot status: same revision, key count and content hash (hash is over bucket contents)
        JsonNode statusOriginal = snapshotStatus(original);
        JsonNode statusOurs = snapshotStatus(ours);
        assertThat(statusOurs.get("revision")).isEqualTo(statusOriginal.get("revision"));
        assertThat(statusOurs.get("totalKey")).isEqualTo(statusOriginal.get("totalKey"));
        assertThat(statusOurs.get("hash")).isEqualTo(statusOriginal.get("hash"));
        assertThat(statusOurs.get("totalSize").asLong()).isEqualTo(Files.size(ours) - 32);

        // (b) restore both, start etcd on both, compare the whole keyspace and the leases
        Served expected = restoreAndServe(original, "original", false);
        Served actual = restoreAndServe(ours, "ours", true);
        assertThat(actual.before()).isEqualTo(expected.before());
        assertThat(actual.leases()).containsExactlyInAnyOrder(expected.leases());
        // (the digests hold the revision; after a compaction it can be above snapshot status's, the newest key's)
        assertThat(actual.before().keys()).isPositive();
        // (c) after etcd's own defrag of our layout
        assertThat(actual.afterDefrag()).isEqualTo(expected.before());

        // etcd's defragmented db still holds our key and lease buckets unchanged
        assertSameBucket(original, actual.dataDir().resolve("member/snap/db"), "key");
        assertSameBucket(original, actual.dataDir().resolve("member/snap/db"), "lease");
    }

    /** Reads every bucket of {@code from} and writes it into a new file with BoltWriter. */
    static void copyAllBuckets(Path from, Path to) throws IOException {
        try (BoltReader reader = BoltReader.open(from);
                BoltWriter writer = BoltWriter.create(to, reader.pageSize())) {
            for (byte[] name : reader.bucketNames()) {
                try (BucketWriter bucket = writer.bucket(name)) {
                    bucket.setSequence(reader.sequence(List.of(name)));
                    reader.forEach(name, (k, v, isBucket) -> {
                        if (isBucket) {
                            throw new AssertionError("etcd has no nested buckets");
                        }
                        bucket.put(k, v);
                    });
                }
            }
            writer.finish();
        }
    }

    record Served(KeyspaceDigest before, KeyspaceDigest afterDefrag, long[] leases, Path dataDir) {}

    private Served restoreAndServe(Path snapshot, String name, boolean defrag) {
        EtcdMember member = EtcdMember.onFreeLoopbackPort();
        Path data = tmp.resolve("data-" + name);
        EtcdBinaries binaries =
                EtcdBinaries.locate(Optional.of(EtcdTestEnvironment.onPath().binDir()), "");
        new SnapshotRestorer(binaries, tmp.resolve("scratch-" + name), Duration.ofMinutes(2))
                .restore(new SnapshotRestorer.Request(snapshot, member, data, Optional.empty(), false));
        try (EmbeddedEtcd etcd = EmbeddedEtcd.start(
                        EmbeddedEtcdConfig.defaults(binaries, member, data, tmp.resolve("etcd-" + name)));
                EtcdGrpcClient client = EtcdGrpcClient.connect(etcd.clientEndpoint(), CALL)) {
            long revision = client.status().getHeader().getRevision();
            KeyspaceDigest before = KeyspaceDigest.of(client, revision);
            long[] leases = client.leaseIds();
            KeyspaceDigest after = null;
            if (defrag) {
                client.defragment(Duration.ofMinutes(1));
                after = KeyspaceDigest.of(client, revision);
            }
            return new Served(before, after, leases, data);
        }
    }

    private static void assertSameBucket(Path expected, Path actual, String bucket) throws IOException {
        assertThat(entries(actual, bucket)).containsExactlyElementsOf(entries(expected, bucket));
    }

    private static List<String> entries(Path db, String bucket) throws IOException {
        List<String> out = new ArrayList<>();
        try (BoltReader reader = BoltReader.open(db)) {
            reader.forEach(
                    bytes(bucket),
                    (k, v, b) -> out.add(Arrays.toString(k) + "=" + Arrays.hashCode(v) + "/" + v.length));
        }
        return out;
    }

    private JsonNode snapshotStatus(Path file) throws IOException, InterruptedException {
        return SnapshotStatus.of(file);
    }
}
