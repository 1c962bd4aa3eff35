package io.etcdworkers.launcher.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.etcdworkers.launcher.job.CompactFlags;
import io.etcdworkers.launcher.job.JobFactory;
import io.etcdworkers.launcher.job.JobFactoryTest;
import io.etcdworkers.launcher.job.JobNames;
import io.etcdworkers.launcher.job.JobResources;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The launcher against fabric8's mock API server in CRUD mode; Job status is patched by the test. */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class JobLauncherTest {
    private static final String NS = "default";
    private static final String RESULT_OK =
            "{\"kind\":\"restore\",\"outcome\":\"succeeded\",\"exitCode\":0,\"finalRevision\":1234}";

    KubernetesClient client;
    private JobLauncher launcher;
    private Job job;

    @BeforeEach
    void setUp() {
        launcher = new JobLauncher(client);
        job = new JobFactory(Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC))
                .build(JobFactoryTest.sampleRestore());
    }

    @Test
    void createsTheJob() {
        Job created = launcher.create(job);
        assertThat(created.getMetadata().getName()).isEqualTo("etcd-main-restore-20261129-220000");
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(NS)
                        .withName(created.getMetadata().getName())
                        .get())
                .isNotNull();
    }

    @Test
    void refusesASecondJobForTheSameTargetWhileTheFirstIsActive() {
        launcher.create(job);
        Job second = laterRun(job, "etcd-main-restore-20261129-230000");
        assertThatThrownBy(() -> launcher.create(second))
                .isInstanceOfSatisfying(
                        LauncherException.class, e -> assertThat(e.error()).isEqualTo(LauncherError.TARGET_BUSY))
                .hasMessageContaining("etcd-main-restore-20261129-220000")
                .hasMessageContaining("still active");
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(NS)
                        .withName("etcd-main-restore-20261129-230000")
                        .get())
                .isNull();

        finish(job.getMetadata().getName(), "Complete", null);
        assertThat(launcher.create(second).getMetadata().getName()).isEqualTo("etcd-main-restore-20261129-230000");
    }

    @Test
    void anotherKindOrEtcdIsNotTheSameTarget() {
        launcher.create(job);
        Job compaction = new JobFactory(Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC))
                .build(JobFactoryTest.sampleCompact(CompactFlags.none()));
        assertThat(launcher.create(compaction)).isNotNull();
    }

    @Test
    void watchesToCompletionAndReadsTheWorkersResult() throws Exception {
        String name = launcher.create(job).getMetadata().getName();
        List<Job> seen = new CopyOnWriteArrayList<>();
        CompletableFuture<JobOutcome> outcome =
                CompletableFuture.supplyAsync(() -> launcher.watch(NS, name, Duration.ofSeconds(30), seen::add));
        await().atMost(Duration.ofSeconds(10)).until(() -> !seen.isEmpty());

        workerPod(name, "p1", 0, RESULT_OK, "2026-11-29T22:05:00Z");
        finish(name, "Complete", null);

        JobOutcome o = outcome.get(20, TimeUnit.SECONDS);
        assertThat(o.state()).isEqualTo(JobOutcome.State.SUCCEEDED);
        assertThat(o.exitCode()).isZero();
        assertThat(o.result().json()).isTrue();
        assertThat(o.result().kind()).isEqualTo("restore");
        assertThat(o.result().outcome()).isEqualTo("succeeded");
        assertThat(o.result().raw()).isEqualTo(RESULT_OK);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "DeadlineExceeded, DEADLINE_EXCEEDED, 40",
        "BackoffLimitExceeded, BACKOFF_LIMIT_EXCEEDED, 20",
        "PodFailurePolicy, POD_FAILURE_POLICY, 12"
    })
    void watchesToEachFailureReason(String reason, JobOutcome.FailureReason typed, int workerExit) throws Exception {
        String name = launcher.create(job).getMetadata().getName();
        CompletableFuture<JobOutcome> outcome =
                CompletableFuture.supplyAsync(() -> launcher.watch(NS, name, Duration.ofSeconds(30), j -> {}));
        // an earlier attempt, then the one that decided the outcome
        workerPod(name, "p1", 20, result(20, "store unavailable"), "2026-11-29T22:01:00Z");
        workerPod(name, "p2", workerExit, result(workerExit, "failed for " + reason), "2026-11-29T22:09:00Z");
        finish(name, "Failed", reason);

        JobOutcome o = outcome.get(20, TimeUnit.SECONDS);
        assertThat(o.state()).isEqualTo(JobOutcome.State.FAILED);
        assertThat(o.reason()).isEqualTo(reason);
        assertThat(o.failureReason()).isEqualTo(typed);
        assertThat(o.exitCode()).isEqualTo(workerExit);
        assertThat(o.result().error()).isEqualTo("failed for " + reason);
    }

    @Test
    void aFailedJobWithoutAPodHasTheLaunchersExitCode() {
        String name = launcher.create(job).getMetadata().getName();
        finish(name, "Failed", "DeadlineExceeded");
        JobOutcome o = launcher.watch(NS, name, Duration.ofSeconds(10), j -> {});
        assertThat(o.result()).isNull();
        assertThat(o.exitCode()).isEqualTo(LauncherError.JOB_FAILED_WITHOUT_RESULT.exitCode());
    }

    @Test
    void aTerminationMessageThatIsNotJsonIsKeptRaw() {
        String name = launcher.create(job).getMetadata().getName();
        workerPod(name, "p1", 1, "Exception in thread \"main\" java.lang.OutOfMemoryError", "2026-11-29T22:02:00Z");
        finish(name, "Failed", "BackoffLimitExceeded");
        JobOutcome o = launcher.status(NS, name);
        assertThat(o.result().json()).isFalse();
        assertThat(o.result().raw()).contains("OutOfMemoryError");
        assertThat(o.exitCode()).isEqualTo(1);
    }

    @Test
    void anOomKillIsItsOwnOutcomeWithTheLimitThatWasTooSmall() {
        String name = launcher.create(job).getMetadata().getName();
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName(name + "-p1")
                .withNamespace(NS)
                .addToLabels(JobLauncher.POD_JOB_LABEL, name)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName(JobFactory.CONTAINER)
                .withImage("img")
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase("Failed")
                .addNewContainerStatus()
                .withName(JobFactory.CONTAINER)
                .withNewState()
                .withNewTerminated()
                .withExitCode(137)
                .withReason("OOMKilled")
                .withFinishedAt("2026-11-29T22:02:00Z")
                .endTerminated()
                .endState()
                .endContainerStatus()
                .endStatus()
                .build();
        client.pods().inNamespace(NS).resource(pod).create();
        finish(name, "Failed", "PodFailurePolicy");

        JobOutcome o = launcher.status(NS, name);

        assertThat(o.oomKilled()).isTrue();
        assertThat(o.outOfMemory()).isTrue();
        assertThat(o.containerExitCode()).isEqualTo(137);
        assertThat(o.memoryLimit()).isEqualTo(JobResources.DEFAULT_MEMORY);
        // the workers' OUT_OF_MEMORY, not the kill signal's 137 nor "failed without a result"
        assertThat(o.exitCode()).isEqualTo(io.etcdworkers.contract.ErrorCode.OUT_OF_MEMORY.exitCode());
    }

    @Test
    void aWorkerWhoseHeapRanOutSaysSoInItsResult() {
        String name = launcher.create(job).getMetadata().getName();
        workerPod(name, "p1", 35, result(35, "the Java heap (at most 512 MiB) ran out"), "2026-11-29T22:02:00Z");
        finish(name, "Failed", "PodFailurePolicy");

        JobOutcome o = launcher.status(NS, name);

        assertThat(o.oomKilled()).isFalse();
        assertThat(o.outOfMemory()).isTrue();
        assertThat(o.exitCode()).isEqualTo(35);
    }

    @Test
    void aWatchThatTimesOutLeavesTheJobRunning() {
        String name = launcher.create(job).getMetadata().getName();
        JobOutcome o = launcher.watch(NS, name, Duration.ofMillis(300), j -> {});
        assertThat(o.state()).isEqualTo(JobOutcome.State.WATCH_TIMED_OUT);
        assertThat(o.exitCode()).isEqualTo(LauncherError.WATCH_TIMEOUT.exitCode());
        assertThat(client.batch().v1().jobs().inNamespace(NS).withName(name).get())
                .isNotNull();
    }

    @Test
    void cancelDeletesTheJob() {
        String name = launcher.create(job).getMetadata().getName();
        assertThat(launcher.cancel(NS, name)).isTrue();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> client.batch()
                                .v1()
                                .jobs()
                                .inNamespace(NS)
                                .withName(name)
                                .get()
                        == null);
        assertThat(launcher.cancel(NS, name)).isFalse();
    }

    @Test
    void statusOfAMissingJobIsNotFound() {
        assertThatThrownBy(() -> launcher.status(NS, "nope"))
                .isInstanceOfSatisfying(
                        LauncherException.class, e -> assertThat(e.error()).isEqualTo(LauncherError.NOT_FOUND));
    }

    @Test
    void listsOnlyTheJobsItOwns() {
        launcher.create(job);
        client.batch()
                .v1()
                .jobs()
                .inNamespace(NS)
                .resource(new JobBuilder()
                        .withNewMetadata()
                        .withName("someone-elses")
                        .withNamespace(NS)
                        .endMetadata()
                        .withNewSpec()
                        .withNewTemplate()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("c")
                        .withImage("i")
                        .endContainer()
                        .withRestartPolicy("Never")
                        .endSpec()
                        .endTemplate()
                        .endSpec()
                        .build())
                .create();
        assertThat(launcher.list(NS))
                .extracting(j -> j.getMetadata().getName())
                .containsExactly("etcd-main-restore-20261129-220000");
    }

    private void finish(String name, String type, String reason) {
        client.batch()
                .v1()
                .jobs()
                .inNamespace(NS)
                .withName(name)
                .editStatus(j -> new JobBuilder(j)
                        .editOrNewStatus()
                        .addToConditions(new JobConditionBuilder()
                                .withType(type)
                                .withStatus("True")
                                .withReason(reason)
                                .withMessage(reason == null ? null : "Job has reached " + reason)
                                .build())
                        .endStatus()
                        .build());
    }

    private void workerPod(String jobName, String podName, int exitCode, String message, String finishedAt) {
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName(jobName + "-" + podName)
                .withNamespace(NS)
                .addToLabels(JobLauncher.POD_JOB_LABEL, jobName)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName(JobFactory.CONTAINER)
                .withImage("img")
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase(exitCode == 0 ? "Succeeded" : "Failed")
                .addNewContainerStatus()
                .withName(JobFactory.CONTAINER)
                .withNewState()
                .withNewTerminated()
                .withExitCode(exitCode)
                .withMessage(message)
                .withFinishedAt(finishedAt)
                .endTerminated()
                .endState()
                .endContainerStatus()
                .endStatus()
                .build();
        client.pods().inNamespace(NS).resource(pod).create();
    }

    private static String result(int exitCode, String error) {
        return "{\"kind\":\"restore\",\"outcome\":\"failed\",\"exitCode\":" + exitCode + ",\"error\":\"" + error
                + "\"}";
    }

    private static Job laterRun(Job first, String name) {
        return new JobBuilder(first)
                .editMetadata()
                .withName(name)
                .addToLabels(JobNames.LABEL_INSTANCE, name)
                .endMetadata()
                .build();
    }
}
