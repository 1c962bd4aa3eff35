package io.etcdworkers.rebuild.bump;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.KVGrpc;
import io.etcd.jetcd.api.PutRequest;
import io.etcd.jetcd.api.RangeRequest;
import io.etcdworkers.bolt.BoltReader;
import io.etcdworkers.etcd.EmbeddedEtcd;
import io.etcdworkers.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.etcd.EtcdGrpcClient;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.etcd.SnapshotRestorer;
import io.etcdworkers.rebuild.verify.KeyspaceDigest;
import io.etcdworkers.testsupport.EtcdInstall;
import io.etcdworkers.testsupport.EtcdTestEnvironment;
import io.etcdworkers.testsupport.EtcdVersions;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real etcd opens a database bumped by {@link BumpWriter} as etcdutl 3.5's {@code --bump-revision
 * N --mark-compacted} promises: at revision {@code L+N}, with the keyspace as it was (original
 * create and mod revisions), everything before the bump compacted, the next write at {@code
 * L+N+1}; and etcdutl 3.5 bumping the same database writes the same {@code key} and {@code meta}
 * buckets as ours.
 */
@Timeout(300)
class BumpedDatabaseEtcdIT {
    private static final Duration CALL = Duration.ofSeconds(30);
    private static final long N = 1000;

    @TempDir
    Path tmp;

    @Test
    void etcdOpensTheBumpedDatabaseAtTheBumpedRevisionWithTheSameKeyspace() throws Exception {
        Path original = Files.copy(EtcdTestEnvironment.fullSnapshot(), tmp.resolve("original.db"));
        Path bumped = Files.copy(original, tmp.resolve("bumped.db"));

        RevisionBump bump = BumpWriter.bumpInPlace(bumped, N);

        Served before = restoreAndServe(original, "original", false);
        Served after = restoreAndServe(bumped, "bumped", true);
        assertThat(bump.latest()).isEqualTo(before.revision());
        assertThat(after.revision()).isEqualTo(before.revision() + N).isEqualTo(bump.revision());
        // the same keys, values, create/mod revisions, versions and leases; only the revision moved
        assertThat(after.digest().keys()).isEqualTo(before.digest().keys()).isPositive();
        assertThat(after.digest().kvSha256()).isEqualTo(before.digest().kvSha256());
        assertThat(after.digest().metaSha256()).isEqualTo(before.digest().metaSha256());
        assertThat(after.olderReadRefused())
                .as("a read below the bump is refused as compacted")
                .isTrue();
        assertThat(after.nextWrite()).isEqualTo(bump.revision() + 1);
        // what etcd-backup-restore's data dir check reads: the last key of the key bucket
        assertThat(lastMainRevision(after.dataDir().resolve("member/snap/db"))).isGreaterThanOrEqualTo(bump.revision());
    }

    @Test
    void etcdutlBumpsTheSameDatabaseIntoTheSameKeyAndMetaBuckets() throws Exception {
        EtcdInstall v35 = EtcdVersions.v35();
        Path original = Files.copy(EtcdTestEnvironment.fullSnapshot(), tmp.resolve("original.db"));
        Path ours = Files.copy(original, tmp.resolve("ours.db"));
        BumpWriter.bumpInPlace(ours, N);

        Path byEtcdutl = restore35(v35, original, "etcdutl", "--bump-revision", Long.toString(N), "--mark-compacted");
        Path byUs = restore35(v35, ours, "ours");

        for (String bucket : new String[] {"key", "meta"}) {
            assertThat(entries(byUs, bucket)).as(bucket).isEqualTo(entries(byEtcdutl, bucket));
        }
        assertThat(entries(byUs, "meta")).containsKey(hex("scheduledCompactRev"));
    }

    private Path restore35(EtcdInstall v35, Path snapshot, String name, String... extra) {
        Path dataDir = tmp.resolve("data-" + name);
        List<String> args = new ArrayList<>(List.of(
                "snapshot",
                "restore",
                snapshot.toString(),
                "--data-dir",
                dataDir.toString(),
                "--name",
                "m1",
                "--initial-cluster",
                "m1=http://127.0.0.1:2380",
                "--initial-advertise-peer-urls",
                "http://127.0.0.1:2380",
                "--initial-cluster-token",
                "t"));
        args.addAll(List.of(extra));
        v35.run(v35.etcdutl().orElseThrow(), args.toArray(String[]::new));
        return dataDir.resolve("member/snap/db");
    }

    record Served(long revision, KeyspaceDigest digest, boolean olderReadRefused, long nextWrite, Path dataDir) {}

    private Served restoreAndServe(Path snapshot, String name, boolean probe) {
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
            KeyspaceDigest digest = KeyspaceDigest.of(client, revision);
            if (!probe) {
                return new Served(revision, digest, false, 0, data);
            }
            KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(client.channel());
            boolean refused;
            try {
                kv.range(RangeRequest.newBuilder()
                        .setKey(ByteString.copyFromUtf8("\0"))
                        .setRangeEnd(ByteString.copyFromUtf8("\0"))
                        .setRevision(revision - N)
                        .setLimit(1)
                        .build());
                refused = false;
            } catch (StatusRuntimeException e) {
                assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.OUT_OF_RANGE);
                assertThat(e.getStatus().getDescription()).contains("compacted");
                refused = true;
            }
            long next = kv.put(PutRequest.newBuilder()
                            .setKey(ByteString.copyFromUtf8("/after/the/bump"))
                            .setValue(ByteString.copyFromUtf8("x"))
                            .build())
                    .getHeader()
                    .getRevision();
            return new Served(revision, digest, refused, next, data);
        }
    }

    private static long lastMainRevision(Path db) throws IOException {
        long[] last = {0};
        try (BoltReader reader = BoltReader.open(db)) {
            reader.forEach(
                    "key".getBytes(StandardCharsets.US_ASCII),
                    (k, v, isBucket) -> last[0] = ByteBuffer.wrap(k).getLong(0));
        }
        return last[0];
    }

    private static Map<String, String> entries(Path db, String bucket) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        try (BoltReader reader = BoltReader.open(db)) {
            reader.forEach(
                    bucket.getBytes(StandardCharsets.US_ASCII),
                    (k, v, isBucket) ->
                            out.put(HexFormat.of().formatHex(k), HexFormat.of().formatHex(v)));
        }
        return out;
    }

    private static String hex(String ascii) {
        return HexFormat.of().formatHex(ascii.getBytes(StandardCharsets.US_ASCII));
    }
}
