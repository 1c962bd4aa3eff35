package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.files.FileTree;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.EtcdInstall;
import io.etcdworkers.testsupport.EtcdVersions;
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
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A data dir restored with etcd 3.5 (its etcdutl and its verifying etcd) is one the member's
 * etcd accepts whatever its version: etcd-druid's clusters run 3.4, and a 3.4 etcd refuses a
 * data dir whose WAL a 3.5 etcd wrote to ("cluster cannot be downgraded"). Each engine's placed
 * data dir is copied twice; etcd 3.4.x and etcd 3.5.x each start on their own copy and must
 * serve the fixture's {@code expected/state.json} digests at its revision. And the other way
 * round: a 3.4 restore starts under 3.5 (an upgrade). Needs both versions (see
 * {@link EtcdVersions}); skips only when 3.5 is absent, which CI never lets happen.
 */
@Timeout(300)
class CrossVersionRestoreIT {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "restored by {0} with --engine={1}, WAL on a scratch WAL dir: {2}")
    @CsvSource({
        "3.5, replay, false",
        "3.5, offline, false",
        "3.5, replay, true",
        "3.4, replay, false",
        "3.4, offline, false"
    })
    void thePlacedDataDirStartsUnderEtcd34And35AndServesTheSourceState(
            String restoredBy, String engine, boolean scratchWalDir) throws IOException {
        EtcdInstall v35 = EtcdVersions.v35();
        EtcdInstall v34 = EtcdVersions.v34();
        EtcdInstall restorer = restoredBy.equals("3.5") ? v35 : v34;
        Path dataDir = dir.resolve("data/new.etcd");

        CommandRun run = restore(restorer, engine, dataDir, scratchWalDir);

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("engine").asText()).isEqualTo(engine);
        JsonNode state = ExpectedState.stateJson();
        for (EtcdInstall starter : List.of(v34, v35)) {
            Path copy = dir.resolve("copy-" + starter.version());
            FileTree.copy(dataDir, copy);

            ExpectedState.Served served =
                    ExpectedState.serve(starter, copy, dir.resolve("reader-" + starter.version()));

            assertThat(served.etcdVersion()).isEqualTo(starter.version().toString());
            assertThat(served.revision())
                    .as("served by etcd %s", starter.version())
                    .isEqualTo(state.get("revision").asLong());
            assertThat(served.digest().kvSha256())
                    .as("kv digest served by etcd %s", starter.version())
                    .isEqualTo(state.get("kv_sha256").asText());
            assertThat(served.digest().metaSha256())
                    .as("meta digest served by etcd %s", starter.version())
                    .isEqualTo(state.get("meta_sha256").asText());
        }
        JsonNode placed = run.result().get("placedDataDir");
        assertThat(placed)
                .as("result says what the placed dir is good for: " + run.stdout())
                .isNotNull();
        assertThat(placed.get("verifiedBy").asText()).isEqualTo("etcd " + restorer.version());
        assertThat(placed.get("writtenBy").asText()).endsWith(" " + restorer.version());
        assertThat(placed.get("startsWith")).extracting(JsonNode::asText).contains("3.4", "3.5");
        Processes.awaitNoneMentioning(dir);
    }

    private CommandRun restore(EtcdInstall binaries, String engine, Path dataDir, boolean scratchWalDir)
            throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "restore",
                "--store-container",
                Fixtures.bucket("gzip").toString(),
                "--data-dir",
                dataDir.toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString(),
                "--engine=" + engine,
                "--etcd-bin-dir=" + binaries.etcd().getParent()));
        if (scratchWalDir) {
            args.add("--scratch-wal-dir=" + Files.createDirectories(dir.resolve("wal")));
        }
        return CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                args.toArray(String[]::new));
    }
}
