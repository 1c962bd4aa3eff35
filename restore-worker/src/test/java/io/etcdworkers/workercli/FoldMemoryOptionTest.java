package io.etcdworkers.workercli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --fold-memory} takes a size of at least 8Mi or {@code auto}; anything else is a usage error before any work. */
class FoldMemoryOptionTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"0", "1Mi", "lots", "-5"})
    void aBudgetBelow8MiOrNotASizeIsAUsageError(String value) throws Exception {
        CommandRun run = restore("--fold-memory=" + value);

        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ErrorCode.USAGE.exitCode());
        assertThat(run.result().get("errorCode").asText()).isEqualTo("USAGE");
        assertThat(run.result().get("error").asText()).contains("--fold-memory");
        assertThat(dir.resolve("data")).doesNotExist();
    }

    @ParameterizedTest
    @ValueSource(strings = {"auto", "AUTO", "8Mi", "2Gi"})
    void aSizeOrAutoIsTaken(String value) throws Exception {
        CommandRun run = restore("--fold-memory=" + value);

        // the empty bucket ends the run, not the flag
        assertThat(run.exitCode()).as(run.stderr()).isNotEqualTo(ErrorCode.USAGE.exitCode());
        assertThat(run.result().get("error").asText()).doesNotContain("--fold-memory");
    }

    private CommandRun restore(String flag) throws Exception {
        Path bucket = Files.createDirectories(dir.resolve("bucket"));
        return CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                "restore",
                "--store-container",
                bucket.toString(),
                "--data-dir",
                dir.resolve("data").toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString(),
                flag);
    }
}
