package io.etcdworkers.launcher.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.BuildVersion;
import io.etcdworkers.launcher.job.JobNames;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The outcomes the launcher records: counted and timed with druid-like tags, and an Event on the Job. */
@EnableKubernetesMockClient(crud = true)
class JobMetricsTest {
    KubernetesClient client;

    @Test
    void theLaunchersVersionIsAnInfoMetric() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new JobMetrics(registry);

        assertThat(registry.get(JobMetrics.BUILD_INFO)
                        .tag("version", BuildVersion.current())
                        .gauge()
                        .value())
                .isEqualTo(1.0);
    }

    @Test
    void aFailedAndASucceededJobAreCountedByKindEtcdAndFailureReason() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        JobLauncher launcher = new JobLauncher(client).withMetrics(new JobMetrics(registry));
        Job job = client.batch()
                .v1()
                .jobs()
                .inNamespace("demo")
                .resource(new JobBuilder()
                        .withNewMetadata()
                        .withName("etcd-main-restore-1")
                        .withNamespace("demo")
                        .withCreationTimestamp("2026-11-29T22:00:00Z")
                        .withLabels(Map.of(JobNames.LABEL_COMPONENT, "restore", JobNames.LABEL_ETCD, "etcd-main"))
                        .endMetadata()
                        .withNewSpec()
                        .withNewTemplate()
                        .withNewSpec()
                        .endSpec()
                        .endTemplate()
                        .endSpec()
                        .build())
                .create();
        // the API server sets the creation time: the duration runs from it to the end
        Instant end = OffsetDateTime.parse(job.getMetadata().getCreationTimestamp())
                .toInstant()
                .plus(Duration.ofMinutes(3));

        launcher.recordOutcome(
                job,
                new JobOutcome(
                        "demo",
                        "etcd-main-restore-1",
                        JobOutcome.State.FAILED,
                        "PodFailurePolicy",
                        null,
                        WorkerResult.parse("{\"kind\":\"restore\",\"outcome\":\"failed\","
                                + "\"exitCode\":12,\"error\":\"hash\"}"),
                        12),
                end);
        launcher.recordOutcome(
                job,
                new JobOutcome(
                        "demo",
                        "etcd-main-restore-1",
                        JobOutcome.State.SUCCEEDED,
                        null,
                        null,
                        WorkerResult.parse("{\"kind\":\"restore\",\"outcome\":\"succeeded\",\"exitCode\":0}"),
                        0),
                end);
        launcher.recordOutcome(
                job,
                new JobOutcome(
                        "demo", "etcd-main-restore-1", JobOutcome.State.FAILED, "DeadlineExceeded", null, null, null),
                end);

        assertThat(registry.get(JobMetrics.JOBS)
                        .tags(
                                "kind",
                                "restore",
                                "etcd",
                                "etcd-main",
                                "succeeded",
                                "false",
                                "failureReason",
                                "hash_mismatch")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(JobMetrics.JOBS)
                        .tags("succeeded", "true", "failureReason", "none")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(JobMetrics.JOBS)
                        .tags("failureReason", "deadlineexceeded")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(JobMetrics.DURATION)
                        .tags("failureReason", "hash_mismatch")
                        .timer()
                        .totalTime(TimeUnit.SECONDS))
                .isEqualTo(Duration.ofMinutes(3).toSeconds());
        assertThat(client.v1().events().inNamespace("demo").list().getItems())
                .hasSize(3)
                .extracting(e -> e.getReason())
                .containsExactlyInAnyOrder("WorkerFailed", "WorkerSucceeded", "WorkerFailed");
    }
}
