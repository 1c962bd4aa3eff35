package io.etcdworkers.launcher.manifests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcdworkers.launcher.cli.CliContext;
import io.etcdworkers.launcher.cli.LauncherCli;
import io.etcdworkers.launcher.kube.ClusterVersions;
import io.etcdworkers.launcher.kube.DruidEtcd;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The launcher's Role in {@code manifests/rbac/launcher.yaml} grants exactly what the launcher uses:
 * every subcommand runs against fabric8's mock API server, each request the launcher's client made is
 * turned into the (API group, resource, verb) the API server would authorize, and that set must equal
 * the set the Role grants. A missing rule fails here instead of with 403 in a cluster; an unused one
 * fails too, so the Role does not grow beyond need.
 */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class LauncherRbacTest {
    private static final String NS = "etcd-workers-demo";
    private static final String AGENT = "launcher-under-rbac-test";
    private static final String JOB = "etcd-main-compaction-20261129-220000";
    private static final List<String> STORE = List.of(
            "-n",
            NS,
            "--etcd",
            "etcd-main",
            "--image",
            "etcd-workers:latest",
            "--storage-provider",
            "S3",
            "--store-container",
            "etcd-backups",
            "--store-secret",
            "etcd-backup");

    KubernetesMockServer server;
    KubernetesClient client;

    /** The mock API server reports a Kubernetes version the launcher creates Jobs on. */
    @BeforeEach
    void aSupportedKubernetesVersion() {
        ClusterVersions.reportSupported(server);
    }

    /** One authorization check: what a Role rule must allow for a request. */
    record Access(String group, String resource, String verb) implements Comparable<Access> {
        @Override
        public int compareTo(Access o) {
            return toString().compareTo(o.toString());
        }
    }

    private int launcher(KubernetesClient launcherClient, String... args) {
        CliContext ctx = new CliContext(
                Map.of(),
                Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC),
                context -> launcherClient,
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(new StringWriter(), true));
        return LauncherCli.execute(ctx, args);
    }

    private static String[] with(String command, List<String> base, String... more) {
        List<String> all = new ArrayList<>(List.of(command));
        all.addAll(base);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @Test
    void theRoleGrantsExactlyWhatTheLauncherCalls() throws Exception {
        Set<Access> used = new TreeSet<>();
        // a client of its own, told apart by its User-Agent from the test's calls that play the cluster
        try (KubernetesClient launcherClient = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(client.getConfiguration())
                        .withUserAgent(AGENT)
                        .build())
                .build()) {
            exerciseEverySubcommand(launcherClient);
        }
        RecordedRequest r;
        while ((r = server.takeRequest(100, TimeUnit.MILLISECONDS)) != null) {
            // /version is not a resource a Role grants: the cluster's system:public-info-viewer lets every
            // user read it
            if (AGENT.equals(r.getHeader("User-Agent")) && !r.getPath().equals("/version")) {
                used.add(access(r.getMethod(), r.getPath()));
            }
        }
        assertThat(used).as("calls seen").isNotEmpty();
        assertThat(granted())
                .as("the Role's grants (actual) against the launcher's calls (expected)")
                .isEqualTo(used);
    }

    private void exerciseEverySubcommand(KubernetesClient launcherClient) throws Exception {
        assertThat(launcher(launcherClient, with("restore", STORE, "--target-claim", "etcd-main-etcd-main-0")))
                .isZero();

        GenericKubernetesResource etcd = new KubernetesSerialization()
                .unmarshal(
                        Files.readString(Path.of("src/test/resources/etcd-druid/etcd-main.yaml")),
                        GenericKubernetesResource.class);
        etcd.getMetadata().setNamespace(NS);
        client.genericKubernetesResources(DruidEtcd.RESOURCE)
                .inNamespace(NS)
                .resource(etcd)
                .create();
        assertThat(launcher(
                        launcherClient,
                        "restore",
                        "-n",
                        NS,
                        "--from-etcd",
                        "etcd-main",
                        "--image",
                        "img:1",
                        "--dry-run"))
                .isZero();

        CompletableFuture<Integer> waited = CompletableFuture.supplyAsync(
                () -> launcher(launcherClient, with("compact", STORE, "--wait", "--timeout", "30s")));
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        client.batch().v1().jobs().inNamespace(NS).withName(JOB).get() != null);
        client.pods()
                .inNamespace(NS)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(JOB + "-x")
                        .addToLabels("batch.kubernetes.io/job-name", JOB)
                        .endMetadata()
                        .withNewStatus()
                        .addNewContainerStatus()
                        .withName("worker")
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(0)
                        .withMessage("{\"kind\":\"compact\",\"outcome\":\"done\",\"exitCode\":0}")
                        .withFinishedAt("2026-11-29T22:03:00Z")
                        .endTerminated()
                        .endState()
                        .endContainerStatus()
                        .endStatus()
                        .build())
                .create();
        client.batch()
                .v1()
                .jobs()
                .inNamespace(NS)
                .withName(JOB)
                .editStatus(j -> new JobBuilder(j)
                        .editOrNewStatus()
                        .addToConditions(new JobConditionBuilder()
                                .withType("Complete")
                                .withStatus("True")
                                .build())
                        .endStatus()
                        .build());
        assertThat(waited.get(20, TimeUnit.SECONDS)).isZero();

        assertThat(launcher(launcherClient, with("cronjob", STORE, "--schedule", "17 */6 * * *")))
                .isZero();
        assertThat(launcher(
                        launcherClient,
                        with("cronjob", STORE, "--schedule", "17 */6 * * *", "--min-delta-snapshots", "4")))
                .as("second apply updates")
                .isZero();
        assertThat(launcher(launcherClient, "status", "-n", NS)).isZero();
        assertThat(launcher(launcherClient, "status", "-n", NS, JOB)).isZero();
        assertThat(launcher(launcherClient, "status", "-n", NS, "--wait", "--timeout", "10s", JOB))
                .isZero();
        assertThat(launcher(launcherClient, "cancel", "-n", NS, JOB)).isZero();
    }

    /** The verb the API server authorizes a request as (kubernetes.io/docs/reference/access-authn-authz/authorization). */
    static Access access(String method, String pathAndQuery) {
        URI uri = URI.create(pathAndQuery);
        String[] p = uri.getPath().replaceFirst("^/", "").split("/");
        // /api/v1/namespaces/NS/RES[/NAME] or /apis/GROUP/VERSION/namespaces/NS/RES[/NAME]
        boolean core = p[0].equals("api");
        int at = core ? 2 : 3;
        assertThat(p[at]).as("namespaced request " + pathAndQuery).isEqualTo("namespaces");
        String group = core ? "" : p[1];
        String resource = p[at + 2];
        boolean named = p.length > at + 3;
        if (p.length > at + 4) {
            resource += "/" + p[at + 4];
        }
        String query = uri.getQuery() == null ? "" : uri.getQuery();
        String verb = switch (method) {
            case "GET" -> query.contains("watch=true") ? "watch" : named ? "get" : "list";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> named ? "delete" : "deletecollection";
            default -> throw new AssertionError("unexpected method " + method + " " + pathAndQuery);
        };
        return new Access(group, resource, verb);
    }

    static Set<Access> granted() throws IOException {
        Set<Access> granted = new TreeSet<>();
        for (String doc :
                ManifestFiles.documents(ManifestFiles.read(ManifestFiles.ROOT.resolve("rbac/launcher.yaml")))) {
            if (ManifestFiles.object(doc) instanceof Role role) {
                for (PolicyRule rule : role.getRules()) {
                    assertThat(rule.getResourceNames())
                            .as("no resourceNames: Job names vary")
                            .isNullOrEmpty();
                    for (String g : rule.getApiGroups()) {
                        for (String res : rule.getResources()) {
                            for (String v : rule.getVerbs()) {
                                granted.add(new Access(g, res, v));
                            }
                        }
                    }
                }
            }
        }
        return granted;
    }
}
