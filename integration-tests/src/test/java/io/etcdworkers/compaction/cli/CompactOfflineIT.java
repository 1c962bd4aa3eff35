package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.GeneratedBucket;
import io.etcdworkers.testsupport.Processes;
import io.etcdworkers.testsupport.RandomHistory;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The offline engine's compacted snapshot against the replay's, on the same random history:
 * restored and served by real etcds they hold the same keys, values, revisions, versions and
 * leases, and etcd's own {@code hashkv} (a hash over the key bucket's revisions and encoded
 * entries since the compaction) is the same: the two databases hold byte-identical key entries.
 */
@Timeout(600)
class CompactOfflineIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(longs = {21, 22})
    void offlineAndReplayCompactionsAreTheSameDatabaseToEtcd(long seed) {
        GeneratedBucket replayBucket = RandomHistory.write(dir.resolve("replay/bucket"), seed);
        GeneratedBucket offlineBucket = RandomHistory.write(dir.resolve("offline/bucket"), seed);

        JsonNode replay = compactAndCheck(replayBucket.root(), "replay");
        JsonNode offline = compactAndCheck(offlineBucket.root(), "offline");

        assertThat(offline.get("finalRevision")).isEqualTo(replay.get("finalRevision"));
        assertThat(offline.get("metaSha256")).isEqualTo(replay.get("metaSha256"));
        ExpectedState.Served fromReplay = restoreAndServe(replayBucket.root(), dir.resolve("replay"));
        ExpectedState.Served fromOffline = restoreAndServe(offlineBucket.root(), dir.resolve("offline"));
        assertThat(fromOffline.revision()).isEqualTo(replayBucket.revision()).isEqualTo(fromReplay.revision());
        assertThat(fromOffline.compactRevision())
                .isEqualTo(fromReplay.compactRevision())
                .isEqualTo(replayBucket.revision());
        assertThat(fromOffline.keys()).containsExactlyElementsOf(fromReplay.keys());
        assertThat(fromOffline.leaseIds()).containsExactlyInAnyOrder(fromReplay.leaseIds());
        assertThat(fromOffline.hashKv()).isEqualTo(fromReplay.hashKv());
        Processes.awaitNoneMentioning(dir);
    }

    private JsonNode compactAndCheck(Path bucket, String engine) {
        CommandRun run = CompactFixturesIT.compact(dir.resolve(engine), bucket, "--engine=" + engine);
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("engine").asText()).isEqualTo(engine);
        return run.result();
    }

    private static ExpectedState.Served restoreAndServe(Path bucket, Path work) {
        Path dataDir = work.resolve("restored");
        CommandRun restore = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                work,
                "restore",
                "--store-container",
                bucket.toString(),
                "--data-dir",
                dataDir.toString(),
                "--scratch-dir",
                work.resolve("scratch").toString(),
                "--engine=replay");
        assertThat(restore.exitCode()).as(restore.stderr()).isZero();
        assertThat(restore.result().get("deltas").asInt()).isZero();
        return ExpectedState.serve(dataDir, work.resolve("reader"));
    }
}
