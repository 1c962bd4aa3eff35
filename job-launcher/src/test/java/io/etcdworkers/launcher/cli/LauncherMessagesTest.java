package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.BuildVersion;
import io.etcdworkers.launcher.kube.LauncherError;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** What the launcher answers a mistake with: the error on one line, what to do on the next. */
@Timeout(60)
class LauncherMessagesTest {
    private static final String[] COMPACT = {
        "compact",
        "-n",
        "demo",
        "--etcd",
        "etcd-main",
        "--image",
        "img:1",
        "--storage-provider",
        "S3",
        "--store-container",
        "bkt",
        "--store-secret",
        "etcd-backup"
    };

    @TempDir
    Path home;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** The entry as a user runs it, with {@code env} as the environment and an empty home. */
    private int run(Map<String, String> env, String... args) {
        ClusterConfigSource source = new ClusterConfigSource(env, home, home.resolve("no-service-account"));
        return LauncherCli.run(
                source,
                Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC),
                new PrintWriter(out, true),
                new PrintWriter(err, true),
                args);
    }

    private String[] errLines() {
        return err.toString().strip().split("\\R");
    }

    @Test
    void aMissingRequiredOptionIsTheErrorAndOneLineOfHelpNotTheWholeUsage() {
        assertThat(run(
                        Map.of(),
                        "compact",
                        "--etcd",
                        "etcd-main",
                        "--storage-provider",
                        "S3",
                        "--store-container",
                        "bkt",
                        "--store-secret",
                        "etcd-backup",
                        "--dry-run"))
                .isEqualTo(2);

        assertThat(errLines())
                .containsExactly(
                        "job-launcher: Missing required option: '--image=<image>'",
                        "Run 'job-launcher compact --help' for its options.");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aDryRunThatShouldWaitIsRefusedRatherThanTheWaitIgnored() {
        String[] args = concat(COMPACT, "--dry-run", "--wait");

        assertThat(run(Map.of(), args)).isEqualTo(2);

        assertThat(errLines())
                .containsExactly(
                        "job-launcher: --wait watches the Job a run creates and --dry-run creates none: give one of them",
                        "Run 'job-launcher compact --help' for its options.");
        assertThat(out.toString()).as("no YAML printed").isEmpty();
    }

    @Test
    void fromEtcdWithADryRunAndNoClusterSaysTheResourceIsReadFromTheClusterNotUseDryRun() {
        assertThat(run(Map.of(), "restore", "--from-etcd", "etcd-main", "--image", "img:1", "--dry-run"))
                .isEqualTo(LauncherError.NO_CLUSTER.exitCode());

        String[] lines = errLines();
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).startsWith("job-launcher: no Kubernetes cluster configured");
        assertThat(lines[1])
                .startsWith("--from-etcd reads the Etcd resource from the cluster, also with --dry-run")
                .doesNotContain("use --dry-run");
    }

    @Test
    void withoutAnyClusterTheHelpLineSuggestsTheDryRun() {
        assertThat(run(Map.of(), COMPACT)).isEqualTo(LauncherError.NO_CLUSTER.exitCode());

        assertThat(errLines()).hasSize(2);
        assertThat(errLines()[1]).contains("use --dry-run to print the YAML without a cluster");
    }

    @Test
    void anUnreachableApiServerIsSaidWithItsCause() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path kubeconfig = Files.writeString(home.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: c
                  cluster: {server: "https://127.0.0.1:%d", insecure-skip-tls-verify: true}
                users:
                - name: u
                  user: {token: not-a-secret}
                contexts:
                - name: x
                  context: {cluster: c, user: u, namespace: demo}
                current-context: x
                """.formatted(port));

        // fabric8 reads the kubeconfig's path from the process (the system property before KUBECONFIG)
        String before = System.setProperty("kubeconfig", kubeconfig.toString());
        long start = System.nanoTime();
        try {
            assertThat(run(Map.of("KUBECONFIG", kubeconfig.toString()), "status"))
                    .isEqualTo(LauncherError.KUBERNETES_API.exitCode());
        } finally {
            if (before == null) {
                System.clearProperty("kubeconfig");
            } else {
                System.setProperty("kubeconfig", before);
            }
        }
        System.out.printf("unreachable API server: exit after %d ms%n", (System.nanoTime() - start) / 1_000_000);

        assertThat(errLines()).hasSize(1);
        assertThat(errLines()[0])
                .startsWith("job-launcher: could not list Jobs")
                .contains("Connection refused");
    }

    @Test
    void everyOptionOfEveryCommandSaysWhatItIsFor() {
        CliContext ctx = new CliContext(
                Map.of(),
                Clock.systemUTC(),
                name -> {
                    throw new AssertionError("no cluster");
                },
                new PrintWriter(out, true),
                new PrintWriter(err, true));
        Deque<CommandLine> commands = new ArrayDeque<>();
        commands.add(LauncherCli.commandLine(ctx));
        while (!commands.isEmpty()) {
            CommandLine command = commands.pop();
            commands.addAll(command.getSubcommands().values());
            for (OptionSpec option : command.getCommandSpec().options()) {
                assertThat(String.join(" ", option.description()).strip())
                        .as("%s %s", command.getCommandSpec().qualifiedName(), option.longestName())
                        .isNotEmpty();
            }
        }
    }

    @Test
    void theVersionIsTheBuildsAsTheWorkersReportIt() {
        CliContext ctx = new CliContext(
                Map.of(),
                Clock.systemUTC(),
                name -> {
                    throw new AssertionError("no cluster");
                },
                new PrintWriter(out, true),
                new PrintWriter(err, true));

        assertThat(LauncherCli.execute(ctx, "--version")).isZero();

        assertThat(out.toString().strip()).isEqualTo("job-launcher " + BuildVersion.current());
        assertThat(BuildVersion.current()).doesNotContain("unknown");
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
