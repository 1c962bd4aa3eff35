package io.etcdworkers.restore.extract;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.GeneratedBucket;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keys that cannot be written as files, whatever the disk: the same on every run, so a usage
 * error (exit 2, not retried) naming the keys and advising the data dir output, and no output.
 */
@Timeout(300)
class ExtractKeyPathLimitsIT {

    @TempDir
    Path dir;

    @Test
    void aKeyWhoseDirectoryIsAnotherKeysFileIsAUsageErrorNamingBoth() {
        GeneratedBucket bucket = GeneratedBucket.create(dir.resolve("bucket"), GeneratedBucket.Compression.GZIP, 3)
                .put("/c/a", 40)
                .put("/c/a.value/x", 40)
                .put("/c/b", 40);
        bucket.cutDelta();

        CommandRun run = extract(bucket, "/c/");

        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(2);
        assertThat(run.result().get("errorCode").asText()).isEqualTo("USAGE");
        assertThat(run.result().get("error").asText())
                .contains(
                        "the key /c/a.value/x needs a directory c/a.value where the key /c/a wrote a file",
                        "--output-format=etcd");
        assertThat(dir.resolve("out")).doesNotExist();
        assertThat(dir.resolve("out.part")).doesNotExist();
    }

    @Test
    void aKeyWhosePathIsLongerThanTheSystemAllowsIsAUsageErrorNamingIt() {
        StringBuilder key = new StringBuilder("/c");
        while (key.length() < 4096) {
            key.append('/').append("d".repeat(150));
        }
        GeneratedBucket bucket = GeneratedBucket.create(dir.resolve("bucket"), GeneratedBucket.Compression.GZIP, 3)
                .put("/c/short", 40)
                .put(key.toString(), 40);
        bucket.cutDelta();

        CommandRun run = extract(bucket, "/c/");

        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(2);
        assertThat(run.result().get("errorCode").asText()).isEqualTo("USAGE");
        assertThat(run.result().get("error").asText())
                .contains("the key " + key.substring(0, 200) + "...", "longer than the 4095", "--output-format=etcd");
        assertThat(dir.resolve("out")).doesNotExist();
        assertThat(dir.resolve("out.part")).doesNotExist();
    }

    private CommandRun extract(GeneratedBucket bucket, String prefix) {
        return CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                "extract",
                "--store-container",
                bucket.root().toString(),
                "--prefix",
                prefix,
                "--output",
                dir.resolve("out").toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString());
    }
}
