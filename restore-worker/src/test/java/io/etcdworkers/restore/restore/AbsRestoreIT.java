package io.etcdworkers.restore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.restore.workercli.WorkerContext;
import io.etcdworkers.testsupport.AzuriteServer;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
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
 * real Azure Blob server (Azurite), restore with {@code --storage-provider ABS} to exactly the
 * source's state with both engines, and {@code verify-backup} accepts them. Credentials are
 * etcd-druid's JSON Secret form; the endpoint is given as etcdbrctl v0.41 takes it.
 */
@Timeout(600)
class AbsRestoreIT {
    private static final String CONTAINER = "etcd-backups";

    @TempDir
    static Path serverDir;
    static AzuriteServer azurite;

    @TempDir
    Path dir;

    @BeforeAll
    static void startServer() {
        azurite = AzuriteServer.start(serverDir);
        azurite.createContainer(CONTAINER);
        azurite.upload(CONTAINER, Fixtures.V0_23_0, Fixtures.bucket(Fixtures.V0_23_0, "gzip"));
        azurite.upload(CONTAINER, Fixtures.V0_41_2, Fixtures.bucket(Fixtures.V0_41_2, "gzip"));
    }

    @AfterAll
    static void stopServer() {
        if (azurite != null) {
            azurite.close();
        }
    }

    @ParameterizedTest
    @CsvSource({"etcdbr-v0.23.0, offline", "etcdbr-v0.23.0, replay", "etcdbr-v0.41.2, offline",
        "etcdbr-v0.41.2, replay"})
    void aFixtureInAzureRestoresToTheSourceState(String fixture, String engine) {
        Path dataDir = dir.resolve("data/new.etcd");
        boolean v041 = fixture.equals(Fixtures.V0_41_2);

        CommandRun run = run("restore", fixture, "--data-dir=" + dataDir, "--engine=" + engine,
                "--scratch-dir=" + dir.resolve("scratch"));

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        JsonNode state = ExpectedState.stateJson(fixture);
        assertThat(result.get("storageProvider").asText()).isEqualTo("ABS");
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
        assertThat(run.stdout() + run.stderr()).doesNotContain(AzuriteServer.KEY);
        Processes.awaitNoneMentioning(dir);
    }

    @ParameterizedTest
    @CsvSource({"etcdbr-v0.23.0, 3656", "etcdbr-v0.41.2, 3783"})
    void verifyBackupAcceptsAFixtureInAzure(String fixture, long lastRevision) {
        CommandRun run = run("verify-backup", fixture);

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("outcome").asText()).isEqualTo("succeeded");
        assertThat(run.result().get("storageProvider").asText()).isEqualTo("ABS");
        assertThat(run.result().get("lastRevision").asLong()).isEqualTo(lastRevision);
        assertThat(run.result().get("badObjects").asLong()).isZero();
        assertThat(run.result().get("chainBreaks").asLong()).isZero();
    }

    private CommandRun run(String command, String fixture, String... extra) {
        Map<String, String> env = AzuriteServer.env(AzuriteServer.KEY, dir.resolve("secret"));
        List<String> args = new java.util.ArrayList<>(List.of(command, "--storage-provider=ABS",
                "--store-container=" + CONTAINER, "--store-prefix=" + fixture,
                "--store-endpoint-override=" + azurite.accountUrl()));
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
