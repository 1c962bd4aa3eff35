package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.launcher.kube.LauncherError;
import io.etcdworkers.launcher.kube.LauncherException;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** No cluster configured fails at once; --dry-run takes the context's namespace from the files alone. */
@Timeout(30)
class ClusterConfigSourceTest {
    private static final String[] COMPACT = {
        "compact",
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

    private int run(Map<String, String> env, String... args) {
        ClusterConfigSource source = new ClusterConfigSource(env, home, home.resolve("no-service-account"));
        return LauncherCli.run(
                source,
                Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC),
                new PrintWriter(out, true),
                new PrintWriter(err, true),
                args);
    }

    private Path kubeconfig(String name, String currentContext, String contextNamespace) throws IOException {
        return Files.writeString(home.resolve(name), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: c
                  cluster: {server: "https://127.0.0.1:1"}
                users:
                - name: u
                  user: {token: not-a-secret}
                contexts:
                - name: %s
                  context: {cluster: c, user: u, namespace: %s}
                - name: other
                  context: {cluster: c, user: u}
                current-context: %s
                """.formatted(currentContext, contextNamespace, currentContext));
    }

    @Test
    void withNoKubeconfigAndNoServiceAccountEveryClusterCommandFailsAtOnceWithItsOwnCode() {
        for (String[] args : new String[][] {
            {"status"},
            {"status", "some-job"},
            {"cancel", "-n", "x", "some-job"},
            {"status", "--wait", "some-job"},
            COMPACT
        }) {
            assertThat(run(Map.of(), args)).as(String.join(" ", args)).isEqualTo(LauncherError.NO_CLUSTER.exitCode());
        }
        assertThat(err.toString())
                .contains("no Kubernetes cluster configured: KUBECONFIG is unset and " + home.resolve(".kube/config")
                        + " does not exist")
                .contains("KUBERNETES_SERVICE_HOST is unset")
                .contains("--dry-run")
                .doesNotContain("kubernetes.default.svc")
                .doesNotContain("Exception");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aKubeconfigVariableNamingNoFileIsSaidSo() {
        String missing = home.resolve("nope").toString();
        assertThat(run(Map.of("KUBECONFIG", missing), "status")).isEqualTo(56);
        assertThat(err.toString()).contains("KUBECONFIG=" + missing + " names no existing file");
    }

    @Test
    void aDryRunNeedsNoClusterAndUsesDefaultWithoutOne() {
        assertThat(run(Map.of(), withDryRun())).isZero();
        assertThat(namespaceOfPrintedJob()).isEqualTo("default");
    }

    @Test
    void aDryRunTakesTheCurrentContextsNamespaceLikeKubectl() throws IOException {
        Path config = kubeconfig("config-a", "prod", "shoot--prod--main");
        assertThat(run(Map.of("KUBECONFIG", config.toString()), withDryRun())).isZero();
        assertThat(namespaceOfPrintedJob()).isEqualTo("shoot--prod--main");
    }

    @Test
    void aDryRunWithContextTakesThatContextsNamespaceAndAFlagWins() throws IOException {
        Path a = kubeconfig("config-a", "prod", "from-a");
        Path b = kubeconfig("config-b", "prod", "from-b");
        Map<String, String> env = Map.of("KUBECONFIG", a + File.pathSeparator + b);
        assertThat(run(env, withDryRun())).isZero();
        assertThat(namespaceOfPrintedJob()).as("the first file wins").isEqualTo("from-a");

        out.getBuffer().setLength(0);
        assertThat(run(env, withDryRun("--context", "other"))).isZero();
        assertThat(namespaceOfPrintedJob()).as("a context without a namespace").isEqualTo("default");

        out.getBuffer().setLength(0);
        assertThat(run(env, withDryRun("-n", "flag-ns"))).isZero();
        assertThat(namespaceOfPrintedJob()).isEqualTo("flag-ns");

        assertThat(run(env, withDryRun("--context", "missing"))).isEqualTo(2);
        assertThat(err.toString()).contains("no context missing");
    }

    @Test
    void inAPodTheServiceAccountsNamespaceIsUsed() throws IOException {
        Path sa = Files.createDirectories(home.resolve("sa"));
        Files.writeString(sa.resolve("namespace"), "etcd-workers-demo\n");
        ClusterConfigSource source = new ClusterConfigSource(Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1"), home, sa);
        source.requireConfigured();
        assertThat(source.contextNamespace(null)).isEqualTo("etcd-workers-demo");
    }

    @Test
    void aBrokenKubeconfigIsAUsageError() throws IOException {
        Path bad = Files.writeString(home.resolve("bad"), "contexts: [unclosed");
        ClusterConfigSource source = new ClusterConfigSource(Map.of("KUBECONFIG", bad.toString()), home, home);
        assertThatThrownBy(() -> source.contextNamespace(null))
                .isInstanceOfSatisfying(
                        LauncherException.class, e -> assertThat(e.error()).isEqualTo(LauncherError.USAGE))
                .hasMessageContaining(bad.toString());
    }

    private String[] withDryRun(String... more) {
        String[] all = new String[COMPACT.length + 1 + more.length];
        System.arraycopy(COMPACT, 0, all, 0, COMPACT.length);
        all[COMPACT.length] = "--dry-run";
        System.arraycopy(more, 0, all, COMPACT.length + 1, more.length);
        return all;
    }

    private String namespaceOfPrintedJob() {
        return new KubernetesSerialization()
                .unmarshal(out.toString(), Job.class)
                .getMetadata()
                .getNamespace();
    }
}
