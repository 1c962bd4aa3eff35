package io.etcdworkers.compaction.cli;

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
 * Arguments the compaction worker cannot parse still give one result JSON: outcome failed, error
 * code USAGE and the message, on stdout and in the result file the arguments name, with exit 2.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UsageErrorResultTest {
    @TempDir
    Path dir;

    private static void assertUsageResult(JsonNode result, String kind, String error) {
        assertThat(result.path("kind").asText()).isEqualTo(kind);
        assertThat(result.path("outcome").asText()).isEqualTo("failed");
        assertThat(result.path("exitCode").asInt()).isEqualTo(2);
        assertThat(result.path("errorCode").asText()).isEqualTo("USAGE");
        assertThat(result.path("error").asText()).contains(error);
    }

    @Test
    void aBadValuePrintsAResultAndWritesTheResultFile() throws Exception {
        Path resultFile = dir.resolve("result.json");

        CommandRun run = CommandRun.run(
                WorkerContext::new,
                CompactionWorkerCommand::run,
                Map.of(),
                dir,
                "compact",
                "--result-file=" + resultFile,
                "--store-container",
                dir.toString(),
                "--min-delta-revisions",
                "many");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("--min-delta-revisions");
        assertUsageResult(run.result(), "compact", "'many'");
        assertUsageResult(
                new ObjectMapper().readTree(Files.readString(resultFile)), "compact", "--min-delta-revisions");
    }

    @Test
    void aMissingCommandPrintsAResultOfTheTopCommand() {
        CommandRun run = CommandRun.run(WorkerContext::new, CompactionWorkerCommand::run, Map.of(), dir);

        assertThat(run.exitCode()).isEqualTo(2);
        assertUsageResult(run.result(), "compaction-worker", "a command is required");
    }
}
