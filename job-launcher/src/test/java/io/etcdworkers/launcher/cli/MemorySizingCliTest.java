package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcdworkers.launcher.job.JobFactory;
import io.etcdworkers.launcher.kube.ClusterVersions;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.schema.validator.Validator;
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
 * {@code --memory-limit=auto} and {@code --check-memory} against the mock API server: a sizing Job
 * runs first, and what its result says sizes (or refuses) the Job that follows.
 */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class MemorySizingCliTest {
    private static final String NS = "demo";
    private static final String SIZING = "etcd-main-sizing-20261129-220000";
    private static final String COMPACTION = "etcd-main-compaction-20261129-220000";
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
    /** A sizing Job's result (its figures are the launcher's input here, not the rule's output). */
    private static final String ESTIMATE = "{\"kind\":\"verify-backup\",\"outcome\":\"succeeded\",\"exitCode\":0,"
            + "\"sizeEstimate\":{\"keysAtMost\":3000000,\"databaseBytesAtMost\":465567744,\"etcdBytes\":1455567744,"
            + "\"heapBytes\":637108864,\"memoryLimitBytes\":3221225472,\"heapPercent\":31}}";

    KubernetesClient client;
    KubernetesMockServer server;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

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
                context -> client,
                new PrintWriter(out, true),
                new PrintWriter(err, true));
        return LauncherCli.execute(ctx, all.toArray(String[]::new));
    }

    /** The sizing Job's pod ends as the kubelet reports it, and the Job's condition follows. */
    private void sizingEnds(int exitCode, String message) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> client.batch()
                                .v1()
                                .jobs()
                                .inNamespace(NS)
                                .withName(SIZING)
                                .get()
                        != null);
        client.pods()
                .inNamespace(NS)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(SIZING + "-x")
                        .addToLabels("batch.kubernetes.io/job-name", SIZING)
                        .endMetadata()
                        .withNewStatus()
                        .addNewContainerStatus()
                        .withName(JobFactory.CONTAINER)
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(exitCode)
                        .withMessage(message)
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
                .withName(SIZING)
                .editStatus(j -> new JobBuilder(j)
                        .editOrNewStatus()
                        .addToConditions(new JobConditionBuilder()
                                .withType(exitCode == 0 ? "Complete" : "Failed")
                                .withStatus("True")
                                .withReason(exitCode == 0 ? null : "PodFailurePolicy")
                                .build())
                        .endStatus()
                        .build());
    }

    private Job job(String name) {
        return client.batch().v1().jobs().inNamespace(NS).withName(name).get();
    }

    @Test
    void autoRunsTheSizingJobThenGivesTheJobTheMemoryItNamed() throws Exception {
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> run(COMPACT, "--memory-limit=auto"));
        sizingEnds(0, ESTIMATE);

        assertThat(exit.get(20, TimeUnit.SECONDS)).isZero();
        Container sizing =
                job(SIZING).getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(sizing.getCommand())
                .containsExactly(
                        "java",
                        "-XX:SharedArchiveFile=/app/restore-worker.jsa",
                        "-jar",
                        "/app/restore-worker.jar",
                        "verify-backup");
        assertThat(sizing.getArgs()).contains("--estimate-memory", "--scratch-dir=/scratch");
        assertThat(sizing.getResources().getLimits().get("memory")).isEqualTo(new Quantity("512Mi"));

        Container worker = job(COMPACTION)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);
        assertThat(worker.getResources().getLimits().get("memory")).isEqualTo(new Quantity("3072Mi"));
        assertThat(worker.getResources().getRequests().get("memory")).isEqualTo(new Quantity("3072Mi"));
        assertThat(worker.getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("JAVA_TOOL_OPTIONS");
            assertThat(e.getValue()).contains("-XX:MaxRAMPercentage=31.0");
        });
        assertThat(err.toString())
                .contains("sized from the backup: at most 3000000 keys, a database of at most 444 MiB: "
                        + "--memory-limit=3072Mi --heap-percent=31");
        KubernetesSerialization yaml = new KubernetesSerialization();
        for (Job j : List.of(job(SIZING), job(COMPACTION))) {
            assertThat(Validator.newInstance().validate(yaml.asYaml(j)).getMessages())
                    .isEmpty();
        }
    }

    @Test
    void aSmallBackupsEstimateGetsAtLeastTheHeapEveryJobGets() throws Exception {
        // what verify-backup --estimate-memory reports for etcdbrctl v0.41.2's 2,895 keys: the rule's
        // heap (64 MiB and the keys) is 38 % of its 256Mi, below the 128Mi every Job's worker gets
        String small = "{\"kind\":\"verify-backup\",\"outcome\":\"succeeded\",\"exitCode\":0,"
                + "\"sizeEstimate\":{\"keysAtMost\":2895,\"databaseBytesAtMost\":3096576,\"etcdBytes\":4051926,"
                + "\"heapBytes\":67543246,\"memoryLimitBytes\":268435456,\"heapPercent\":38}}";
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> run(COMPACT, "--memory-limit=auto"));
        sizingEnds(0, small);

        assertThat(exit.get(20, TimeUnit.SECONDS)).as(err.toString()).isZero();
        Container worker = job(COMPACTION)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);
        assertThat(worker.getResources().getLimits().get("memory")).isEqualTo(new Quantity("256Mi"));
        assertThat(worker.getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("JAVA_TOOL_OPTIONS");
            assertThat(e.getValue()).contains("-XX:MaxRAMPercentage=50.0");
        });
        assertThat(err.toString()).contains("--memory-limit=256Mi --heap-percent=50");
    }

    @Test
    void checkRefusesALimitTooSmallNamingTheSizeAndCreatesNoJob() throws Exception {
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(
                () -> run(COMPACT, "--check-memory", "--memory-limit=1Gi", "--memory-request=1Gi"));
        sizingEnds(0, ESTIMATE);

        assertThat(exit.get(20, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(err.toString())
                .contains("--memory-limit=1Gi cannot hold this backup: it needs 3072Mi with " + "--heap-percent=31");
        assertThat(job(COMPACTION)).isNull();
    }

    @Test
    void checkLetsALargeEnoughLimitThroughUnchanged() throws Exception {
        CompletableFuture<Integer> exit =
                CompletableFuture.supplyAsync(() -> run(COMPACT, "--check-memory", "--memory-limit=4Gi"));
        sizingEnds(0, ESTIMATE);

        assertThat(exit.get(20, TimeUnit.SECONDS)).isZero();
        assertThat(job(COMPACTION)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getResources()
                        .getLimits()
                        .get("memory"))
                .isEqualTo(new Quantity("4Gi"));
    }

    @Test
    void aSizingJobThatFailsEndsTheRunWithItsCode() throws Exception {
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> run(COMPACT, "--memory-limit=auto"));
        sizingEnds(
                12,
                "{\"kind\":\"verify-backup\",\"outcome\":\"failed\",\"exitCode\":12,"
                        + "\"error\":\"sha mismatch in Incr-1-2.gz\"}");

        assertThat(exit.get(20, TimeUnit.SECONDS)).isEqualTo(12);
        assertThat(out.toString())
                .contains("sizing failed: no restore or compaction Job was created")
                .contains("sha mismatch in Incr-1-2.gz");
        assertThat(job(COMPACTION)).isNull();
    }

    @Test
    void autoNeedsTheClusterAndASizeElsewhere() {
        assertThat(run(COMPACT, "--memory-limit=auto", "--dry-run")).isEqualTo(2);
        assertThat(err.toString()).contains("with --dry-run give a size");
        assertThat(run(List.of(
                        "verify",
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
                        "--dry-run",
                        "--memory-limit=auto")))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--memory-limit=auto sizes one restore or compaction run");
        assertThat(client.batch().v1().jobs().inNamespace(NS).list().getItems()).isEmpty();
    }
}
