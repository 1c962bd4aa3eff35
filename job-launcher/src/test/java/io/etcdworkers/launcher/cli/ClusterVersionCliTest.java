package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.launcher.kube.ClusterVersions;
import io.etcdworkers.launcher.kube.LauncherError;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The launcher makes no Job or CronJob on a cluster older than its Jobs need: it reads the server's
 * version first and refuses with the version found and the one needed.
 */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class ClusterVersionCliTest {
    private static final String NS = "demo";
    private static final List<String> COMPACT = compact("etcd-main");

    KubernetesClient client;
    KubernetesMockServer server;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private static List<String> compact(String etcd) {
        return List.of(
                "compact",
                "-n",
                NS,
                "--etcd",
                etcd,
                "--image",
                "img:1",
                "--storage-provider",
                "S3",
                "--store-container",
                "bkt",
                "--store-secret",
                "etcd-backup");
    }

    private int run(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        CliContext ctx = new CliContext(
                Map.of(),
                Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC),
                context -> client,
                new PrintWriter(out, true),
                new PrintWriter(err, true));
        return LauncherCli.execute(ctx, all.toArray(String[]::new));
    }

    @Test
    void aClusterOlderThanTheJobsNeedGetsNoJobAndTheRunSaysWhichVersionsItFoundAndNeeds() {
        ClusterVersions.report(server, "1", "28");

        assertThat(run(COMPACT))
                .isEqualTo(LauncherError.CLUSTER_TOO_OLD.exitCode())
                .isEqualTo(57);

        assertThat(err.toString()).contains("version 1.28 (v1.28.0)").contains("need 1.29 or later");
        assertThat(client.batch().v1().jobs().inNamespace(NS).list().getItems()).isEmpty();
    }

    @Test
    void aCronJobIsNotAppliedOnAClusterTooOldEither() {
        ClusterVersions.report(server, "1", "25");

        List<String> cron = new ArrayList<>(COMPACT);
        cron.set(0, "cronjob");
        assertThat(run(cron, "--schedule", "17 */6 * * *")).isEqualTo(57);
        assertThat(err.toString()).contains("version 1.25");
        assertThat(client.batch().v1().cronjobs().inNamespace(NS).list().getItems())
                .isEmpty();
    }

    @Test
    void theOldestSupportedVersionAndAManagedServicesMinorWithAPlusGetTheJob() {
        ClusterVersions.report(server, "1", "29");
        assertThat(run(COMPACT)).isZero();

        ClusterVersions.report(server, "1", "31+");
        assertThat(run(compact("etcd-events"))).isZero();

        assertThat(client.batch().v1().jobs().inNamespace(NS).list().getItems()).hasSize(2);
    }

    @Test
    void aDryRunAsksNoServerForItsVersion() {
        ClusterVersions.report(server, "1", "20");
        assertThat(run(COMPACT, "--dry-run")).isZero();
    }
}
