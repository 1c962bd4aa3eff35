package io.etcdworkers.workercli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import java.nio.file.Path;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code restore --help} lists the exit codes from the contract, not from a copy. */
class ExitCodeHelpTest {
    @TempDir
    Path dir;

    @Test
    void restoreListsEveryCodeARestoreCanEndWithAndNotTheCompactionsOwn() {
        CommandLine restore = RestoreWorkerCommand.commandLine(new WorkerContext(
                        Map.of(), System.out, System.err, Clock.systemUTC(), dir, dir.resolve("none")))
                .getSubcommands()
                .get("restore");
        Map<String, String> list = restore.getCommandSpec().usageMessage().exitCodeList();

        assertThat(list)
                .hasSize(ErrorCode.values().length - 2) // 0 added; the compaction worker's three left out
                .containsEntry(" 0", "done")
                .containsEntry(" 1  UNEXPECTED          retry", ErrorCode.UNEXPECTED.meaning())
                .containsEntry(" 2  USAGE", ErrorCode.USAGE.meaning())
                .containsEntry("40  INTERRUPTED         retry", ErrorCode.INTERRUPTED.meaning());
        for (ErrorCode code : ErrorCode.values()) {
            assertThat(list.keySet().stream().anyMatch(k -> k.contains(code.name())))
                    .as("%s listed", code)
                    .isEqualTo(!EnumSet.of(
                                    ErrorCode.LEASE_NOT_RENEWED,
                                    ErrorCode.SOURCE_CHANGED,
                                    ErrorCode.STORE_WRITE_REFUSED)
                            .contains(code));
        }
    }

    @Test
    void theListIsAscendingWhateverTheOrderGiven() {
        assertThat(ExitCodeHelp.list("done", List.of(ErrorCode.INTERRUPTED, ErrorCode.USAGE)))
                .containsExactly(
                        entry(" 0", "done"),
                        entry(" 2  USAGE", ErrorCode.USAGE.meaning()),
                        entry("40  INTERRUPTED         retry", ErrorCode.INTERRUPTED.meaning()));
    }

    @Test
    void helpPrintsTheListWithWrappedMeaningsUnderThemselves() {
        CommandRun help =
                CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run, Map.of(), dir, "restore", "--help");

        assertThat(help.exitCode()).isZero();
        assertThat(help.stdout())
                .containsPattern("(?m)^Exit codes \\(\"retry\": running it again may help; .*\\):$")
                .containsPattern("(?m)^   0 +done$")
                .containsPattern("(?m)^  11  BACKUP_INCONSISTENT +gap or overlap")
                .containsPattern("(?m)^  34  TARGET_LOCKED +retry +another worker holds <data-dir>.lock$")
                .doesNotContain("LEASE_NOT_RENEWED");
    }
}
