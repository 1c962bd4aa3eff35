package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A compaction of a bucket name without {@code --storage-provider} says the provider defaulted to Local. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalProviderDefaultTest {
    @TempDir
    Path dir;

    @Test
    void aBucketNameWithoutAProviderSaysTheProviderDefaultedToLocal() {
        CommandRun run = CommandRun.run(
                WorkerContext::new,
                CompactionWorkerCommand::run,
                Map.of(),
                dir,
                "compact",
                "--store-container",
                "etcd-backups",
                "--store-prefix",
                "etcd-main");

        assertThat(run.exitCode()).isEqualTo(21);
        assertThat(run.result().path("error").asText())
                .contains("without --storage-provider the provider is Local, whose --store-container is a directory")
                .contains("did you mean --storage-provider S3, ABS, GCS, Swift, OSS, ECS or OCS?");
    }
}
