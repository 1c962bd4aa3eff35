package io.etcdworkers.workercli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A usage error exits 2 before anything is read or written, and a mistyped flag is answered with the right one. */
class UsageErrorTest {
    @TempDir
    Path dir;

    @Test
    void aMistypedFlagIsNamedWithTheFlagItResembles() {
        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of(),
                dir,
                "restore",
                "--storage-provider=Local",
                "--store-containr=" + dir.resolve("bucket"),
                "--data-dir=" + dir.resolve("data"));

        assertThat(run.exitCode()).isEqualTo(ErrorCode.USAGE.exitCode());
        assertThat(run.stderr())
                .contains("error: Unknown option: '--store-containr=")
                .containsPattern("(?m)^Possible solutions: .*--store-container")
                .contains("run with --help for the flags and their environment variables");
        assertThat(dir.resolve("data")).doesNotExist();
    }

    @Test
    void aMissingRequiredFlagSaysWhichWithoutGuessing() {
        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of(),
                dir,
                "restore",
                "--storage-provider=Local",
                "--store-container=" + dir);

        assertThat(run.exitCode()).isEqualTo(ErrorCode.USAGE.exitCode());
        assertThat(run.stderr())
                .contains("Missing required option: '--data-dir=DIR'")
                .doesNotContain("Possible solutions");
    }
}
