package io.etcdworkers.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Arguments the command line cannot parse still give one result JSON: outcome failed, error code
 * USAGE and the message, on stdout and in the result file the arguments name, with exit 2.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UsageErrorResultTest {
    @TempDir
    Path dir;

    private CommandRun run(Map<String, String> env, String... args) {
        return CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run, env, dir, args);
    }

    private static void assertUsageResult(JsonNode result, String kind, String error) {
        assertThat(result.path("kind").asText()).isEqualTo(kind);
        assertThat(result.path("outcome").asText()).isEqualTo("failed");
        assertThat(result.path("exitCode").asInt()).isEqualTo(2);
        assertThat(result.path("errorCode").asText()).isEqualTo("USAGE");
        assertThat(result.path("retryable").asBoolean(true)).isFalse();
        assertThat(result.path("error").asText()).contains(error);
    }

    @Test
    void anUnknownFlagPrintsAResultAndWritesTheResultFile() throws Exception {
        Path resultFile = dir.resolve("result.json");

        CommandRun run = run(
                Map.of(),
                "restore",
                "--store-container",
                dir.toString(),
                "--data-dir",
                dir.resolve("new.etcd").toString(),
                "--result-file",
                resultFile.toString(),
                "--storage-provder",
                "S3");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr())
                .contains("error: Unknown options: '--storage-provder', 'S3'")
                .contains("--storage-provider");
        assertThat(run.stdout().strip().lines()).hasSize(1);
        assertUsageResult(run.result(), "restore", "Unknown options: '--storage-provder'");
        assertUsageResult(new ObjectMapper().readTree(Files.readString(resultFile)), "restore", "--storage-provder");
    }

    @Test
    void aBadValueNamesTheFlagInTheResultAndTheResultFileOfTheEnvironmentTwin() throws Exception {
        Path resultFile = dir.resolve("twin.json");

        CommandRun run = run(
                Map.of("ETCD_WORKER_RESULT_FILE", resultFile.toString()),
                "verify-backup",
                "--storage-provider",
                "Dropbox",
                "--store-container",
                "etcd-backups");

        assertThat(run.exitCode()).isEqualTo(2);
        assertUsageResult(run.result(), "verify-backup", "--storage-provider");
        assertUsageResult(new ObjectMapper().readTree(Files.readString(resultFile)), "verify-backup", "Dropbox");
    }

    @Test
    void anUnknownOrMissingCommandPrintsAResultOfTheTopCommand() {
        CommandRun unknown = run(Map.of(), "restor", "--store-container", dir.toString());
        CommandRun none = run(Map.of());

        assertThat(unknown.exitCode()).isEqualTo(2);
        assertUsageResult(unknown.result(), "restore-worker", "restor");
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.stderr()).contains("error: a command is required");
        assertUsageResult(none.result(), "restore-worker", "a command is required");
    }

    @Test
    void helpIsNoErrorAndPrintsNoResult() {
        CommandRun help = run(Map.of(), "restore", "--help");

        assertThat(help.exitCode()).isZero();
        assertThat(help.stdout()).doesNotContain("\"outcome\"");
    }
}
