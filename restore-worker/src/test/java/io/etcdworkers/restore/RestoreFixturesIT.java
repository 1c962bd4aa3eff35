package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.Processes;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every real etcd-backup-restore bucket restores to exactly the source etcd's state: same
 * revision, and for every key the same value, create and mod revision, version and lease
 * (read back from a real etcd started on the placed data dir, compared with
 * {@code expected/keys.jsonl}). This includes the 400-put, 2.18 MB revision 3645. The replay
 * engine; {@code OfflineRestoreIT} is the same for the offline engine.
 */
@Timeout(300)
class RestoreFixturesIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"plain", "gzip", "zlib", "lzw"})
    void codecBucketsRestoreToTheSourceStateLeasesIncluded(String bucket) {
        Path dataDir = dir.resolve("data/new.etcd");

        CommandRun run = restore(bucket, dataDir);

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        JsonNode state = ExpectedState.stateJson();
        assertThat(result.get("finalRevision").asLong()).isEqualTo(3656);
        assertThat(result.get("keys").asLong()).isEqualTo(1364);
        assertThat(result.get("events").asLong()).isEqualTo(3472);
        assertThat(result.get("revisions").asLong()).isEqualTo(3055);
        assertThat(result.get("largestRevisionEvents").asInt()).isEqualTo(400);
        assertThat(result.get("kvSha256").asText())
                .isEqualTo(state.get("kv_sha256").asText());
        assertThat(result.get("metaSha256").asText())
                .isEqualTo(state.get("meta_sha256").asText());
        // lease a1d survives (20 keys); lease a3f was revoked in the source at 3644
        assertThat(result.get("leasedKeys").asLong()).isEqualTo(20);
        assertThat(result.get("leasesGranted").asInt()).isEqualTo(2);
        assertThat(result.get("leasesRevoked").asInt()).isEqualTo(1);

        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(3656);
        assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys());
        assertThat(served.leaseIds()).containsExactly(4390624984326916637L);
        assertThat(Files.exists(dataDir.resolveSibling("new.etcd.part"))).isFalse();
        Processes.awaitNoneMentioning(dir);
    }

    @ParameterizedTest
    @ValueSource(strings = {"compacted"})
    void compactedBucketRestoresFromItsCompactedSnapshotAlone(String bucket) {
        Path dataDir = dir.resolve("data/new.etcd");

        CommandRun run = restore(bucket, dataDir);

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        assertThat(result.get("base").get("name").asText()).isEqualTo("v2/Full-00000000-00003656-1795986628");
        assertThat(result.get("deltas").asInt()).isZero();
        assertThat(result.get("finalRevision").asLong()).isEqualTo(3656);
        assertThat(result.get("kvSha256").asText())
                .isEqualTo(ExpectedState.stateJson().get("kv_sha256").asText());
        // etcdbrctl's compaction replayed without lease ids: that is what its snapshot holds
        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.keys())
                .containsExactlyElementsOf(ExpectedState.keys().stream()
                        .map(ExpectedState.Key::withoutLease)
                        .toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip"})
    void walOnAScratchDirIsEmptiedAndThePlacedDataDirHasItsOwnWal(String bucket) throws IOException {
        Path dataDir = dir.resolve("data/new.etcd");
        Path wal = dir.resolve("wal-tmpfs");
        Files.createDirectories(wal);

        CommandRun run = restore(bucket, dataDir, "--scratch-wal-dir", wal.toString());

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        try (var left = Files.list(wal)) {
            assertThat(left).as("the scratch WAL dir is emptied").isEmpty();
        }
        try (var segments = Files.list(dataDir.resolve("member/wal"))) {
            assertThat(segments.map(p -> p.getFileName().toString())).anyMatch(n -> n.endsWith(".wal"));
        }
        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(3656);
        assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys());
    }

    private CommandRun restore(String bucket, Path dataDir, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "restore",
                "--store-container",
                Fixtures.bucket(bucket).toString(),
                "--data-dir",
                dataDir.toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString(),
                "--engine=replay"));
        args.addAll(List.of(extra));
        return CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                args.toArray(String[]::new));
    }
}
