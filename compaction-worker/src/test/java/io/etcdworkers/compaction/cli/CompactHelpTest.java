package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code compact --help} lists every exit code of the contract, its own 23 included. */
class CompactHelpTest {
    @TempDir
    Path dir;

    @Test
    void helpListsEveryCodeWithItsMeaning() {
        CommandRun help =
                CommandRun.run(WorkerContext::new, CompactionWorkerCommand::run, Map.of(), dir, "compact", "--help");

        assertThat(help.exitCode()).isZero();
        assertThat(help.stdout())
                .containsPattern("(?m)^   0 +done, or skipped")
                .containsPattern("(?m)^  23  LEASE_NOT_RENEWED +compaction: the new full snapshot was$");
        for (ErrorCode code : ErrorCode.values()) {
            String line = "(?m)^ +" + code.exitCode() + "  " + code.name() + " ";
            if (code == ErrorCode.SOURCE_CHANGED || code == ErrorCode.STORE_WRITE_REFUSED) {
                assertThat(help.stdout()).as("copy's own").doesNotContainPattern(line);
            } else {
                assertThat(help.stdout()).containsPattern(line);
            }
        }
    }

    @Test
    void copyHelpListsItsCodesAndEtcdbrctlsFlags() {
        CommandRun help =
                CommandRun.run(WorkerContext::new, CompactionWorkerCommand::run, Map.of(), dir, "copy", "--help");

        assertThat(help.exitCode()).isZero();
        assertThat(help.stdout())
                .containsPattern("(?m)^  24  SOURCE_CHANGED +retry ")
                .containsPattern("(?m)^  25  STORE_WRITE_REFUSED ")
                .doesNotContain("LEASE_NOT_RENEWED")
                .contains(
                        "--source-storage-provider",
                        "--source-store-container",
                        "--source-store-prefix",
                        "--source-store-endpoint-override",
                        "--max-backups-to-copy",
                        "--max-backup-age",
                        "--max-parallel-copy-operations",
                        "--wait-for-final-snapshot",
                        "--wait-for-final-snapshot-timeout",
                        "--snapstore-temp-directory",
                        "--dry-run");
    }
}
