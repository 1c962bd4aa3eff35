package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.launcher.job.JobFactory;
import io.etcdworkers.launcher.kube.ClusterVersions;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code restore --member-claims --wait}: the members' results (their pods' termination messages)
 * must report the same revision bump; {@code --bump-revision N} is passed to every member.
 */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class MemberBumpCliTest {
    private static final String NS = "demo";
    private static final List<String> RESTORE = List.of(
            "restore",
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
            "etcd-backup",
            "--initial-cluster",
            "m0=https://m0.peer:2380,m1=https://m1.peer:2380",
            "--member-claims",
            "m0=claim-m0,m1=claim-m1",
            "--to-revision",
            "3000");
    private static final String SAME_BUMP =
            "{\"latestRevision\":3000,\"amount\":1000656,\"revision\":1003656,\"markCompacted\":true}";

    KubernetesClient client;
    KubernetesMockServer server;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** The mock API server reports a Kubernetes version the launcher creates Jobs on, and holds no Jobs of earlier tests. */
    @BeforeEach
    void aSupportedKubernetesVersionAndNoJobs() {
        ClusterVersions.reportSupported(server);
        client.batch().v1().jobs().inNamespace(NS).delete();
        client.pods().inNamespace(NS).delete();
    }

    @Test
    void membersThatReportTheSameBumpSucceed() throws Exception {
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> run("--wait", "--timeout", "30s"));
        List<Job> jobs = awaitJobs();
        finish(jobs.get(0), SAME_BUMP);
        finish(jobs.get(1), SAME_BUMP);

        assertThat(exit.get(30, TimeUnit.SECONDS)).as(err.toString()).isZero();
        assertThat(err.toString()).doesNotContain("different revision bumps");
    }

    @Test
    void membersThatReportDifferentBumpsFailTheRunNamingEach() throws Exception {
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> run("--wait", "--timeout", "30s"));
        List<Job> jobs = awaitJobs();
        finish(jobs.get(0), SAME_BUMP);
        String other = "{\"latestRevision\":3000,\"amount\":1000700,\"revision\":1003700,\"markCompacted\":true}";
        finish(jobs.get(1), other);

        assertThat(exit.get(30, TimeUnit.SECONDS)).isEqualTo(ErrorCode.BACKUP_INCONSISTENT.exitCode());
        assertThat(err.toString())
                .contains("the members were restored with different revision bumps")
                .contains(jobs.get(0).getMetadata().getName() + ": " + SAME_BUMP)
                .contains(jobs.get(1).getMetadata().getName() + ": " + other)
                .contains("do not start the cluster");
    }

    @Test
    void aMemberWithoutABumpDiffersFromOneWithIt() throws Exception {
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> run("--wait", "--timeout", "30s"));
        List<Job> jobs = awaitJobs();
        finish(jobs.get(0), SAME_BUMP);
        finish(jobs.get(1), "null");

        assertThat(exit.get(30, TimeUnit.SECONDS)).isEqualTo(ErrorCode.BACKUP_INCONSISTENT.exitCode());
        assertThat(err.toString()).contains(jobs.get(1).getMetadata().getName() + ": null");
    }

    @Test
    void oneBumpIsPassedToEveryMember() {
        assertThat(run("--dry-run", "--bump-revision", "2000000", "--mark-compacted"))
                .as(err.toString())
                .isZero();
        List<Job> jobs = new ArrayList<>();
        for (String doc : out.toString().split("(?m)^---\\s*$")) {
            if (!doc.isBlank()) {
                jobs.add(new KubernetesSerialization().unmarshal(doc, Job.class));
            }
        }
        assertThat(jobs)
                .hasSize(2)
                .allSatisfy(job -> assertThat(job.getSpec()
                                .getTemplate()
                                .getSpec()
                                .getContainers()
                                .get(0)
                                .getArgs())
                        .contains("--bump-revision=2000000", "--mark-compacted"));
    }

    @Test
    void aBumpWithoutMarkCompactedIsRefused() {
        assertThat(run("--dry-run", "--bump-revision", "5")).isEqualTo(2);
        assertThat(err.toString()).contains("mark-compacted is required with bump-revision > 0");
    }

    private List<Job> awaitJobs() {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> client.batch()
                                .v1()
                                .jobs()
                                .inNamespace(NS)
                                .list()
                                .getItems()
                                .size()
                        == 2);
        return client.batch().v1().jobs().inNamespace(NS).list().getItems();
    }

    /** The member's pod ends with a restore result reporting {@code bump}; its Job completes. */
    private void finish(Job job, String bump) {
        String name = job.getMetadata().getName();
        client.pods()
                .inNamespace(NS)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name + "-x")
                        .addToLabels("batch.kubernetes.io/job-name", name)
                        .endMetadata()
                        .withNewStatus()
                        .addNewContainerStatus()
                        .withName(JobFactory.CONTAINER)
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(0)
                        .withMessage("{\"kind\":\"restore\",\"outcome\":\"succeeded\",\"exitCode\":0,"
                                + "\"finalRevision\":3000,\"revisionBump\":" + bump + "}")
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
                .withName(name)
                .editStatus(j -> new JobBuilder(j)
                        .editOrNewStatus()
                        .addToConditions(new JobConditionBuilder()
                                .withType("Complete")
                                .withStatus("True")
                                .build())
                        .endStatus()
                        .build());
    }

    private int run(String... more) {
        List<String> all = new ArrayList<>(RESTORE);
        all.addAll(List.of(more));
        CliContext ctx = new CliContext(
                Map.of(),
                Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC),
                context -> client,
                new PrintWriter(out, true),
                new PrintWriter(err, true));
        return LauncherCli.execute(ctx, all.toArray(String[]::new));
    }
}
