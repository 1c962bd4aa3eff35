package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher only names the store's Secret; with a secret key in its environment (as AWS
 * variables and as a credentials file the variables point at) neither {@code --help} nor a
 * {@code --dry-run} Job or CronJob shows the value. No cluster is contacted.
 */
class NoSecretInLauncherOutputTest {
    private static final List<String> POD = List.of(
            "--etcd",
            "etcd-main",
            "--image",
            "img:1",
            "-n",
            "demo",
            "--storage-provider",
            "S3",
            "--store-container",
            "bkt",
            "--store-secret",
            "etcd-backup",
            "--store-endpoint-override",
            "http://127.0.0.1:9");

    @TempDir
    Path dir;

    @Test
    void neitherHelpNorDryRunShowsTheSecret() throws IOException {
        byte[] random = new byte[16];
        new SecureRandom().nextBytes(random);
        String secret = "SeCrEt" + HexFormat.of().formatHex(random);
        Path credentials = dir.resolve("credentials.json");
        Files.writeString(
                credentials, "{\"accessKeyID\":\"id\",\"secretAccessKey\":\"" + secret + "\",\"region\":\"r\"}");
        Map<String, String> env = Map.of(
                "AWS_ACCESS_KEY_ID",
                "id",
                "AWS_SECRET_ACCESS_KEY",
                secret,
                "AWS_APPLICATION_CREDENTIALS_JSON",
                credentials.toString(),
                "LAUNCHER_STORE_SECRET",
                "etcd-backup");

        for (List<String> args : List.of(
                List.of("--help"),
                List.of("restore", "--help"),
                List.of("compact", "--help"),
                List.of("cronjob", "--help"),
                concat(List.of("restore", "--dry-run", "--target-claim", "pvc"), POD),
                concat(List.of("compact", "--dry-run"), POD),
                concat(List.of("cronjob", "--dry-run", "--schedule", "17 */6 * * *"), POD))) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = LauncherCli.execute(
                    new CliContext(
                            env,
                            Clock.systemUTC(),
                            context -> {
                                throw new AssertionError("no cluster for " + args);
                            },
                            new PrintWriter(out, true),
                            new PrintWriter(err, true)),
                    args.toArray(String[]::new));

            assertThat(code).as("%s: %s", args, err).isZero();
            assertThat(out.toString()).as("%s printed something", args).isNotBlank();
            assertThat(out.toString() + err).as("%s", args).doesNotContain(secret);
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }
}
