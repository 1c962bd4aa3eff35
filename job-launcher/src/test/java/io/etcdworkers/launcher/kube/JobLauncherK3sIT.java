package io.etcdworkers.launcher.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.launcher.job.CompactFlags;
import io.etcdworkers.launcher.job.CronJobFactory;
import io.etcdworkers.launcher.job.CronJobRequest;
import io.etcdworkers.launcher.job.JobFactory;
import io.etcdworkers.launcher.job.JobFactoryTest;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Real API server admission of the rendered Job and CronJob (podFailurePolicy, security context,
 * sizes): k3s in a container. Skipped, with a message, where no container engine exists.
 */
@Timeout(600)
@ExtendWith(ContainerEngineCondition.class)
class JobLauncherK3sIT {
    static final String K3S_IMAGE = "rancher/k3s:v1.31.4-k3s1";
    private static K3sContainer k3s;
    private static KubernetesClient client;

    @BeforeAll
    static void startK3s() {
        k3s = new K3sContainer(DockerImageName.parse(K3S_IMAGE));
        k3s.start();
        client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(k3s.getKubeConfigYaml()))
                .build();
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("default")
                        .endMetadata()
                        .build())
                .createOr(io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update);
    }

    @AfterAll
    static void stopK3s() {
        if (client != null) {
            client.close();
        }
        if (k3s != null) {
            k3s.stop();
        }
    }

    @Test
    void theApiServerAdmitsTheJobAndTheLauncherRefusesASecond() {
        JobLauncher launcher = new JobLauncher(client);
        Job job = new JobFactory(Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC))
                .build(JobFactoryTest.sampleRestore());
        Job created = launcher.create(job);
        assertThat(created.getSpec().getPodFailurePolicy().getRules()).hasSize(2);
        assertThat(created.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getSecurityContext()
                        .getRunAsNonRoot())
                .isTrue();

        Job second = new JobFactory(Clock.fixed(Instant.parse("2026-11-29T23:00:00Z"), ZoneOffset.UTC))
                .build(JobFactoryTest.sampleRestore());
        assertThatThrownBy(() -> launcher.create(second))
                .isInstanceOf(LauncherException.class)
                .hasMessageContaining("still active");
        assertThat(launcher.list("default")).hasSize(1);
        assertThat(launcher.cancel("default", created.getMetadata().getName())).isTrue();
    }

    @Test
    void theApiServerAdmitsTheCronJob() {
        CronJob cron = new CronJobFactory(new JobFactory(Clock.systemUTC()))
                .build(new CronJobRequest(
                        JobFactoryTest.sampleCompact(CompactFlags.none()), "17 */6 * * *", null, null, 3, 3));
        CronJob applied = new JobLauncher(client).applyCronJob(cron);
        assertThat(applied.getSpec().getConcurrencyPolicy()).isEqualTo("Forbid");
    }
}
