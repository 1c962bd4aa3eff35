package io.etcdworkers.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A restore of a bucket whose snapshots lie under a prefix not given ends in exit 10 naming that prefix. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PrefixHintResultTest {
    @TempDir
    Path dir;

    @Test
    void theResultSaysWhichPrefixToGive() throws Exception {
        Path bucket = dir.resolve("bucket");
        Files.createDirectories(bucket);
        Files.move(Fixtures.copyBucket("gzip", dir), bucket.resolve("etcd-main"));

        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                "restore",
                "--storage-provider",
                "Local",
                "--store-container",
                bucket.toString(),
                "--data-dir",
                dir.resolve("new.etcd").toString());

        assertThat(run.exitCode()).isEqualTo(10);
        JsonNode result = run.result();
        assertThat(result.path("errorCode").asText()).isEqualTo("NO_SNAPSHOTS");
        assertThat(result.path("error").asText())
                .contains("no snapshots", "found snapshots under etcd-main/: add --store-prefix etcd-main");
        assertThat(dir.resolve("new.etcd")).doesNotExist();
    }
}
