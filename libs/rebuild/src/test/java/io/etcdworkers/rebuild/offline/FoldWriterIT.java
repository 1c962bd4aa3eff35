package io.etcdworkers.rebuild.offline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.bolt.BoltReader;
import io.etcdworkers.bolt.PageUsage;
import io.etcdworkers.etcd.EmbeddedEtcd;
import io.etcdworkers.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.etcd.EtcdGrpcClient;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.etcd.SnapshotRestorer;
import io.etcdworkers.rebuild.verify.KeyspaceDigest;
import io.etcdworkers.testsupport.EtcdTestEnvironment;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.SnapshotStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The offline engine's database itself, before any etcd touched it: {@code etcdctl snapshot
 * status} accepts it at the backup's revision, every page is accounted for, and after etcd's
 * own restore and defragmentation the keyspace is what the fold computed and the source had.
 */
@Timeout(120)
class FoldWriterIT {
    @TempDir
    Path dir;

    @Test
    void theWrittenDatabaseIsOneEtcdAcceptsAsItIsAndAfterItsOwnDefrag() throws Exception {
        OfflineResult result = FixtureFold.fold(Fixtures.bucket("lzw"), dir);
        Path work = dir.resolve("work");

        JsonNode state = ExpectedState.stateJson();
        assertThat(result.finalRevision()).isEqualTo(3656);
        assertThat(result.expected().kvSha256())
                .isEqualTo(state.get("kv_sha256").asText());
        assertThat(result.expected().metaSha256())
                .isEqualTo(state.get("meta_sha256").asText());
        assertThat(Files.size(result.database())).isEqualTo(result.databaseBytes() + 32);
        try (var left = Files.list(work)) {
            assertThat(left).as("downloads and spill files removed").allMatch(Files::isDirectory);
        }

        JsonNode status = snapshotStatus(result.database());
        assertThat(status.get("totalSize").asLong()).isEqualTo(result.databaseBytes());
        try (BoltReader reader = BoltReader.open(result.database())) {
            long[] keyEntries = {0};
            long[] allEntries = {0};
            reader.forEach("key".getBytes(StandardCharsets.US_ASCII), (k, v, b) -> keyEntries[0]++);
            for (byte[] bucket : reader.bucketNames()) {
                reader.forEach(bucket, (k, v, b) -> allEntries[0]++);
            }
            // one key entry per live key (no history); etcdctl counts the entries of every bucket
            assertThat(keyEntries[0]).isEqualTo(1364);
            assertThat(status.get("totalKey").asLong()).isEqualTo(allEntries[0]);
            PageUsage usage = reader.checkPages();
            assertThat(usage.unaccounted()).isZero();
            assertThat(usage.freePages()).isZero();
        }

        EtcdMember member = EtcdMember.onFreeLoopbackPort();
        Path data = dir.resolve("data");
        EtcdBinaries binaries =
                EtcdBinaries.locate(Optional.of(EtcdTestEnvironment.onPath().binDir()), "");
        new SnapshotRestorer(binaries, dir.resolve("scratch"), Duration.ofMinutes(2))
                .restore(new SnapshotRestorer.Request(result.database(), member, data, Optional.empty(), false));
        try (EmbeddedEtcd etcd =
                        EmbeddedEtcd.start(EmbeddedEtcdConfig.defaults(binaries, member, data, dir.resolve("etcd")));
                EtcdGrpcClient client = EtcdGrpcClient.connect(etcd.clientEndpoint(), Duration.ofSeconds(30))) {
            assertThat(client.status().getHeader().getRevision()).isEqualTo(3656);
            assertThat(KeyspaceDigest.of(client, 3656).sameKeyspace(result.expected()))
                    .isTrue();
            client.defragment(Duration.ofMinutes(1));
            assertThat(client.status().getHeader().getRevision()).isEqualTo(3656);
            assertThat(KeyspaceDigest.of(client, 3656).sameKeyspace(result.expected()))
                    .isTrue();
        }
    }

    private JsonNode snapshotStatus(Path file) throws IOException, InterruptedException {
        return SnapshotStatus.of(file);
    }
}
