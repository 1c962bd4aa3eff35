package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.launcher.kube.ClusterVersions;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The placement flags and lease renewal's service account and Role, through the CLI. */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class PodOptionsCliTest {
    private static final String NS = "demo";
    private static final List<String> COMPACT = List.of(
            "compact",
            "-n",
            NS,
            "--etcd",
            "etcd-main",
            "--image",
            "img:1",
            "--storage-provider",
            "S3",
            "--store-container",
            "bkt",
            "--store-secret",
            "etcd-backup");

    KubernetesClient client;
    KubernetesMockServer server;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private int clientsMade;

    /** The mock API server reports a Kubernetes version the launcher creates Jobs on. */
    @BeforeEach
    void aSupportedKubernetesVersion() {
        ClusterVersions.reportSupported(server);
    }

    private int run(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        CliContext ctx = new CliContext(
                Map.of(),
                Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC),
                context -> {
                    clientsMade++;
                    return client;
                },
                new PrintWriter(out, true),
                new PrintWriter(err, true));
        return LauncherCli.execute(ctx, all.toArray(String[]::new));
    }

    @Test
    void placementFlagsReachTheJobAndThePodAndTheLaunchersLabelsCannotBeOverridden() {
        assertThat(run(
                        COMPACT,
                        "--dry-run",
                        "--label",
                        "team=platform",
                        "--label",
                        "tier=db,zone=a",
                        "--annotation",
                        "example.com/ticket=INC-1, urgent",
                        "--node-selector",
                        "pool=etcd",
                        "--toleration",
                        "dedicated=etcd:NoSchedule",
                        "--toleration",
                        "node.kubernetes.io/unreachable:NoExecute",
                        "--priority-class",
                        "gardener-system-500",
                        "--image-pull-secret",
                        "regcred",
                        "--gardener-network-labels"))
                .isZero();
        Job job = new KubernetesSerialization().unmarshal(out.toString(), Job.class);
        assertThat(job.getMetadata().getLabels())
                .containsEntry("team", "platform")
                .containsEntry("tier", "db")
                .containsEntry("zone", "a")
                .containsEntry("app.kubernetes.io/managed-by", "etcd-workers-launcher");
        assertThat(job.getMetadata().getAnnotations()).containsEntry("example.com/ticket", "INC-1, urgent");
        var pod = job.getSpec().getTemplate();
        assertThat(pod.getMetadata().getLabels())
                .containsEntry("team", "platform")
                .containsEntry("networking.gardener.cloud/to-public-networks", "allowed");
        assertThat(pod.getSpec().getNodeSelector()).containsExactlyEntriesOf(Map.of("pool", "etcd"));
        assertThat(pod.getSpec().getTolerations())
                .extracting(t -> t.getKey() + "/" + t.getOperator() + "/" + t.getEffect())
                .containsExactly("dedicated/Equal/NoSchedule", "node.kubernetes.io/unreachable/Exists/NoExecute");
        assertThat(pod.getSpec().getPriorityClassName()).isEqualTo("gardener-system-500");
        assertThat(pod.getSpec().getImagePullSecrets())
                .extracting(r -> r.getName())
                .containsExactly("regcred");

        assertThat(run(COMPACT, "--label", "app.kubernetes.io/component=restore"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("label app.kubernetes.io/component is the launcher's own");
        assertThat(run(COMPACT, "--toleration", "dedicated=etcd:Sometimes")).isEqualTo(2);
        assertThat(err.toString()).contains("'Sometimes' is not an effect");
        assertThat(client.batch().v1().jobs().inNamespace(NS).list().getItems()).isEmpty();

        List<String> cron = concat(
                COMPACT,
                "--schedule",
                "17 */6 * * *",
                "--dry-run",
                "--label",
                "team=platform",
                "--gardener-network-labels",
                "--node-selector",
                "pool=etcd");
        cron.set(0, "cronjob");
        out.getBuffer().setLength(0);
        assertThat(run(cron)).isZero();
        CronJob cj = new KubernetesSerialization().unmarshal(out.toString(), CronJob.class);
        assertThat(cj.getMetadata().getLabels()).containsEntry("team", "platform");
        assertThat(cj.getSpec()
                        .getJobTemplate()
                        .getSpec()
                        .getTemplate()
                        .getMetadata()
                        .getLabels())
                .containsEntry("networking.gardener.cloud/to-dns", "allowed");
        assertThat(cj.getSpec()
                        .getJobTemplate()
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getNodeSelector())
                .containsEntry("pool", "etcd");
    }

    @Test
    void leaseRenewalNeedsAServiceAccountAndTheLeaseRoleIsLimitedToTheOneLease() {
        assertThat(run(
                        COMPACT,
                        "--dry-run",
                        "--enable-snapshot-lease-renewal",
                        "--full-snapshot-lease-name",
                        "etcd-main-full-snap"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--enable-snapshot-lease-renewal needs --service-account");
        assertThat(run(
                        COMPACT,
                        "--dry-run",
                        "--enable-snapshot-lease-renewal",
                        "--full-snapshot-lease-name",
                        "etcd-main-full-snap",
                        "--service-account",
                        "etcd-workers"))
                .isZero();

        out.getBuffer().setLength(0);
        assertThat(run(List.of("lease-role", "-n", NS, "--etcd", "etcd-main", "--service-account", "etcd-workers")))
                .isZero();
        List<io.fabric8.kubernetes.api.model.HasMetadata> objects = new KubernetesSerialization()
                .unmarshal(new ByteArrayInputStream(out.toString().getBytes()));
        assertThat(objects).hasSize(2);
        var role = (io.fabric8.kubernetes.api.model.rbac.Role) objects.get(0);
        assertThat(role.getRules()).singleElement().satisfies(r -> {
            assertThat(r.getResourceNames()).containsExactly("etcd-main-full-snap");
            assertThat(r.getVerbs()).containsExactly("get", "patch");
        });
        var binding = (io.fabric8.kubernetes.api.model.rbac.RoleBinding) objects.get(1);
        assertThat(binding.getSubjects())
                .singleElement()
                .satisfies(s -> assertThat(s.getName()).isEqualTo("etcd-workers"));
        assertThat(clientsMade).as("lease-role never contacts a cluster").isZero();
        assertThat(run(List.of("lease-role", "-n", NS, "--etcd", "etcd-main"))).isEqualTo(2);
    }

    private static List<String> concat(List<String> a, String... b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(List.of(b));
        return all;
    }
}
