package io.etcdworkers.compaction.copy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.compaction.cli.CompactionWorkerCommand;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.Processes;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code copy --compact}: the target gets one object, a full snapshot at the source's last revision
 * (no {@code .final}), from which alone a restore gives the fixture's state; a rerun finds it, checks
 * it and writes nothing.
 */
@Timeout(600)
class CompactCopyIT {
    @TempDir
    Path dir;

    private CommandRun copy() {
        Path source = dir.resolve("src");
        return CommandRun.run(
                WorkerContext::new,
                (c, a) -> CompactionWorkerCommand.run(c, a),
                Map.of("PATH", System.getenv("PATH")),
                dir,
                "copy",
                "--compact",
                "--snapstore-temp-directory=" + dir.resolve("tmp"),
                "--scratch-dir=" + dir.resolve("scratch"),
                "--store-container=" + dir.resolve("dst"),
                "--store-prefix=moved",
                "--source-store-container=" + source,
                "--source-store-prefix=etcd-main");
    }

    private List<Path> targetObjects() throws IOException {
        try (Stream<Path> walk = Files.walk(dir.resolve("dst"))) {
            return walk.filter(Files::isRegularFile).toList();
        }
    }

    @Test
    void oneVerifiedFullSnapshotRestoresToTheSourceState() throws IOException {
        Fixtures.copyBucket("gzip", dir.resolve("staging"));
        Files.createDirectories(dir.resolve("src/etcd-main"));
        Files.move(dir.resolve("staging/gzip/v2"), dir.resolve("src/etcd-main/v2"));

        CommandRun copy = copy();

        assertThat(copy.exitCode()).as(copy.stderr()).isZero();
        String name = copy.result().get("compacted").get("name").asText();
        assertThat(name).startsWith("moved/v2/Full-00000000-00003656-").endsWith(".gz");
        assertThat(copy.result().get("copiedCount").asInt()).isEqualTo(1);
        assertThat(targetObjects()).containsExactly(dir.resolve("dst").resolve(name));

        CommandRun rerun = copy();

        assertThat(rerun.exitCode()).as(rerun.stderr()).isZero();
        assertThat(rerun.result().get("copiedCount").asInt()).isZero();
        assertThat(rerun.result().get("skippedCount").asInt()).isEqualTo(1);
        assertThat(targetObjects()).hasSize(1);

        Path dataDir = dir.resolve("restored");
        CommandRun restore = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                "restore",
                "--store-container=" + dir.resolve("dst"),
                "--store-prefix=moved",
                "--data-dir=" + dataDir,
                "--scratch-dir=" + dir.resolve("scratch-restore"));
        assertThat(restore.exitCode()).as(restore.stderr()).isZero();
        assertThat(restore.result().get("deltas").asInt()).isZero();
        JsonNode state = ExpectedState.stateJson();
        assertThat(restore.result().get("kvSha256").asText())
                .isEqualTo(state.get("kv_sha256").asText());
        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(state.get("revision").asLong());
        assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys());
        Processes.awaitNoneMentioning(dir);
    }
}
