package io.etcdworkers.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * S3 with no credentials anywhere is a configuration error (exit 2, not retryable) whose message
 * says where credentials are looked for; it was exit 20 STORE_UNAVAILABLE, which a Job retries
 * for nothing. No request is sent: the SDK signs before it connects, and the instance-metadata
 * lookup (a non-loopback address) is switched off for this test.
 */
@Timeout(60)
class S3NoCredentialsTest {
    private static String previous;

    @TempDir
    Path dir;

    @BeforeAll
    static void noInstanceMetadata() {
        previous = System.setProperty("aws.disableEc2Metadata", "true");
    }

    @AfterAll
    static void restore() {
        if (previous == null) {
            System.clearProperty("aws.disableEc2Metadata");
        } else {
            System.setProperty("aws.disableEc2Metadata", previous);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"verify-backup", "restore"})
    void noCredentialsIsAUsageErrorSayingWhereTheyAreLookedFor(String command) {
        assumeTrue(
                System.getenv("AWS_ACCESS_KEY_ID") == null && System.getenv("AWS_WEB_IDENTITY_TOKEN_FILE") == null,
                "this JVM's environment has AWS credentials; the SDK's chain would find them");
        // PATH: restore looks for etcd before it lists the store
        Map<String, String> env = Map.of(
                "AWS_REGION",
                "eu-west-1",
                "HOME",
                dir.toString(),
                "PATH",
                System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));

        List<String> args = new ArrayList<>(List.of(
                command,
                "--storage-provider=S3",
                "--store-container=etcd-backups",
                "--store-endpoint-override=http://127.0.0.1:9"));
        if (command.equals("restore")) {
            args.addAll(List.of("--data-dir=" + dir.resolve("data"), "--scratch-dir=" + dir.resolve("scratch")));
        }

        CommandRun run =
                CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run, env, dir, args.toArray(String[]::new));

        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ErrorCode.USAGE.exitCode());
        assertThat(run.result().get("errorCode").asText()).isEqualTo("USAGE");
        assertThat(run.result().get("retryable").asBoolean()).isFalse();
        assertThat(run.result().get("error").asText())
                .contains(
                        "no S3 credentials found",
                        "AWS_APPLICATION_CREDENTIALS_JSON",
                        "AWS_APPLICATION_CREDENTIALS",
                        "AWS_ACCESS_KEY_ID",
                        "etcd-backups");
        assertThat(dir.resolve("data")).doesNotExist();
    }
}
