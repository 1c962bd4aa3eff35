package io.etcdworkers.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bucket name as {@code --store-container} without {@code --storage-provider}: the provider is
 * the default, Local, and the message says so and names the providers meant for a bucket.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalProviderDefaultTest {
    private static final String HINT = "did you mean --storage-provider S3, ABS, GCS, Swift, OSS, ECS or OCS?";

    @TempDir
    Path dir;

    private CommandRun run(Map<String, String> env, String... args) {
        return CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run, env, dir, args);
    }

    @Test
    void aBucketNameWithoutAProviderSaysTheProviderDefaultedToLocal() {
        CommandRun run =
                run(Map.of(), "verify-backup", "--store-container", "etcd-backups", "--store-prefix", "etcd-main");

        assertThat(run.exitCode()).isEqualTo(21);
        assertThat(run.result().path("errorCode").asText()).isEqualTo("STORE_NOT_FOUND");
        assertThat(run.result().path("error").asText())
                .startsWith("no directory etcd-backups (" + dir.resolve("etcd-backups") + ")")
                .contains("without --storage-provider the provider is Local, whose --store-container is a directory")
                .contains(HINT);
    }

    @Test
    void aRestoreGetsTheSameAnswer() {
        CommandRun run = run(
                Map.of(),
                "restore",
                "--store-container",
                "etcd-backups",
                "--data-dir",
                dir.resolve("new.etcd").toString());

        assertThat(run.exitCode()).isEqualTo(21);
        assertThat(run.result().path("error").asText()).contains(HINT);
    }

    @Test
    void aProviderGivenAsLocalOnTheCommandLineOrInTheEnvironmentGetsNoHint() {
        CommandRun flag =
                run(Map.of(), "verify-backup", "--storage-provider", "Local", "--store-container", "etcd-backups");
        CommandRun twin = run(
                Map.of("ETCD_WORKER_STORAGE_PROVIDER", "Local"), "verify-backup", "--store-container", "etcd-backups");

        for (CommandRun run : new CommandRun[] {flag, twin}) {
            assertThat(run.exitCode()).isEqualTo(21);
            assertThat(run.result().path("error").asText())
                    .contains("does not exist or is not a directory")
                    .doesNotContain("did you mean");
        }
    }
}
