package io.etcdworkers.restore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.restore.workercli.WorkerContext;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.GcsEmulatorServer;
import io.etcdworkers.testsupport.Processes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The fixture buckets of etcdbrctl v0.23.0 and v0.41.2 (what etcd-druid ships), copied into a
 * server of the GCS JSON API (firebase-tools' emulator), restore with {@code --storage-provider
 * gcp} (etcd-druid's name) or {@code GCS} to exactly the source's state with both engines, and
 * {@code verify-backup} accepts them. The Secret is laid out as etcd-druid mounts it
 * ({@code GOOGLE_APPLICATION_CREDENTIALS} naming {@code serviceaccount.json}); the endpoint is given
 * in the form etcdbrctl's docs use ({@code http://HOST:PORT/storage/v1/}), and, being http, gets
 * no credentials, as etcdbrctl v0.41 sends none to an emulator.
 */
@Timeout(600)
class GcsRestoreIT {
    private static final String BUCKET = "etcd-backups";

    @TempDir
    static Path serverDir;
    static GcsEmulatorServer emulator;

    @TempDir
    Path dir;

    @BeforeAll
    static void startServer() {
        emulator = GcsEmulatorServer.start(serverDir);
        emulator.upload(BUCKET, Fixtures.V0_23_0, Fixtures.bucket(Fixtures.V0_23_0, "gzip"));
        emulator.upload(BUCKET, Fixtures.V0_41_2, Fixtures.bucket(Fixtures.V0_41_2, "gzip"));
    }

    @AfterAll
    static void stopServer() {
        if (emulator != null) {
            emulator.close();
        }
    }

    @ParameterizedTest
    // v0.23.0's replay (15 s) is left out: the replay engine reads a bucket's objects through the
    // store as v0.41.2's run does, and RestoreFixturesIT replays v0.23.0 itself.
    @CsvSource({"etcdbr-v0.23.0, offline", "etcdbr-v0.41.2, offline", "etcdbr-v0.41.2, replay"})
    void aFixtureInGcsRestoresToTheSourceState(String fixture, String engine) {
        Path dataDir = dir.resolve("data/new.etcd");
        boolean v041 = fixture.equals(Fixtures.V0_41_2);

        CommandRun run = run("restore", fixture, "--data-dir=" + dataDir, "--engine=" + engine,
                "--scratch-dir=" + dir.resolve("scratch"));

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        JsonNode state = ExpectedState.stateJson(fixture);
        assertThat(result.get("storageProvider").asText()).isEqualTo("GCS");
        assertThat(result.get("engine").asText()).isEqualTo(engine);
        assertThat(result.get("base").get("name").asText()).startsWith(fixture + "/v2/Full-");
        assertThat(result.get("finalRevision").asLong()).isEqualTo(v041 ? 3783 : 3656);
        assertThat(result.get("keys").asLong()).isEqualTo(v041 ? 1264 : 1364);
        assertThat(result.get("kvSha256").asText()).isEqualTo(state.get("kv_sha256").asText());
        assertThat(result.get("metaSha256").asText()).isEqualTo(state.get("meta_sha256").asText());

        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(v041 ? 3783 : 3656);
        assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys(fixture));
        assertThat(dataDir.resolveSibling("new.etcd.part")).doesNotExist();
        assertThat(list(dir.resolve("scratch"))).as("scratch emptied").isEmpty();
        assertThat(run.stdout() + run.stderr()).doesNotContain("not-a-key");
        Processes.awaitNoneMentioning(dir);
    }

    @ParameterizedTest
    @CsvSource({"etcdbr-v0.23.0, 3656", "etcdbr-v0.41.2, 3783"})
    void verifyBackupAcceptsAFixtureInGcs(String fixture, long lastRevision) {
        CommandRun run = run("verify-backup", fixture);

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("outcome").asText()).isEqualTo("succeeded");
        assertThat(run.result().get("storageProvider").asText()).isEqualTo("GCS");
        assertThat(run.result().get("lastRevision").asLong()).isEqualTo(lastRevision);
        assertThat(run.result().get("badObjects").asLong()).isZero();
        assertThat(run.result().get("chainBreaks").asLong()).isZero();
    }

    private CommandRun run(String command, String fixture, String... extra) {
        Map<String, String> env = GcsEmulatorServer.env(dir.resolve("var/.gcp"));
        List<String> args = new java.util.ArrayList<>(List.of(command,
                "--storage-provider=" + (command.equals("restore") ? "gcp" : "GCS"),
                "--store-container=" + BUCKET, "--store-prefix=" + fixture,
                "--store-endpoint-override=" + emulator.endpoint() + "/storage/v1/"));
        args.addAll(List.of(extra));
        return CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run, env, dir, args.toArray(String[]::new));
    }

    private static List<Path> list(Path path) {
        try (Stream<Path> files = Files.list(path)) {
            return files.toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
