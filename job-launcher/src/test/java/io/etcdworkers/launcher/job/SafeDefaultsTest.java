package io.etcdworkers.launcher.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The safety properties the issue asks of every Job, checked on every golden case so that a
 * regenerated golden file cannot quietly drop one.
 */
@Timeout(60)
class SafeDefaultsTest {

    static Stream<String> cases() {
        return GoldenCases.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyJobIsSafeByDefault(String name) {
        GoldenCases.render(name).forEach(SafeDefaultsTest::isSafeByDefault);
    }

    private static void isSafeByDefault(HasMetadata object) {
        JobSpec spec =
                object instanceof CronJob cron ? cron.getSpec().getJobTemplate().getSpec() : ((Job) object).getSpec();
        PodSpec pod = spec.getTemplate().getSpec();
        Container c = pod.getContainers().get(0);

        assertThat(spec.getBackoffLimit()).isNotNull();
        assertThat(spec.getActiveDeadlineSeconds()).isPositive();
        assertThat(spec.getTtlSecondsAfterFinished()).isPositive();
        assertThat(pod.getRestartPolicy()).isEqualTo("Never");

        List<PodFailurePolicyRule> rules = spec.getPodFailurePolicy().getRules();
        assertThat(rules.get(0).getAction()).isEqualTo("Ignore");
        assertThat(rules.get(0).getOnPodConditions()).anyMatch(p -> p.getType().equals("DisruptionTarget"));
        assertThat(rules.get(1).getAction()).isEqualTo("FailJob");
        assertThat(rules.get(1).getOnExitCodes().getContainerName()).isEqualTo(c.getName());
        assertThat(rules.get(1).getOnExitCodes().getValues())
                .containsExactly(2, 10, 11, 12, 13, 14, 21, 23, 25, 31, 32, 35, 36, 137);

        assertThat(c.getResources().getRequests()).containsKeys("cpu", "memory");
        assertThat(c.getResources().getLimits()).containsKeys("cpu", "memory");
        assertThat(pod.getVolumes())
                .filteredOn(v -> v.getEmptyDir() != null)
                .isNotEmpty()
                .allMatch(v -> v.getEmptyDir().getSizeLimit() != null);
        // a copy takes etcdbrctl's flags: its temp directory is on the scratch volume
        boolean copy = c.getCommand().get(c.getCommand().size() - 1).equals(WorkerKind.COPY.subcommand());
        assertThat(c.getArgs()).contains(copy ? "--snapstore-temp-directory=/scratch" : "--scratch-dir=/scratch");
        assertThat(env(c, "JAVA_TOOL_OPTIONS"))
                .contains("-XX:MaxRAMPercentage=")
                .contains("-Djava.io.tmpdir=/tmp")
                .contains(io.etcdworkers.contract.WorkerJvm.JIT);

        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        boolean leaseRenewal = c.getArgs().contains("--enable-snapshot-lease-renewal=true");
        assertThat(pod.getAutomountServiceAccountToken()).isEqualTo(leaseRenewal);
        assertThat(c.getTerminationMessagePolicy()).isEqualTo("FallbackToLogsOnError");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void credentialsComeOnlyFromTheMountedSecret(String name) {
        GoldenCases.render(name).forEach(SafeDefaultsTest::takesCredentialsOnlyFromTheMountedSecret);
    }

    private static void takesCredentialsOnlyFromTheMountedSecret(HasMetadata object) {
        JobSpec spec =
                object instanceof CronJob cron ? cron.getSpec().getJobTemplate().getSpec() : ((Job) object).getSpec();
        PodSpec pod = spec.getTemplate().getSpec();
        Container c = pod.getContainers().get(0);

        assertThat(c.getEnv())
                .noneMatch(e -> e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null);
        assertThat(c.getEnvFrom()).isNullOrEmpty();
        assertThat(c.getArgs())
                .noneMatch(a -> a.matches("(?i)--[a-z-]*(password|secret|access-key|credential)[a-z-]*=.*"));
        boolean s3 = c.getArgs().contains("--storage-provider=S3");
        if (s3) {
            Volume secret = pod.getVolumes().stream()
                    .filter(v -> v.getSecret() != null)
                    .findFirst()
                    .orElseThrow();
            assertThat(secret.getName()).isEqualTo("etcd-backup-secret");
            assertThat(c.getVolumeMounts())
                    .anyMatch(m -> m.getName().equals("etcd-backup-secret")
                            && m.getMountPath().equals("/var/etcd-backup")
                            && Boolean.TRUE.equals(m.getReadOnly()));
            assertThat(env(c, "AWS_APPLICATION_CREDENTIALS")).isEqualTo("/var/etcd-backup");
        } else {
            assertThat(env(c, "AWS_APPLICATION_CREDENTIALS")).isNull();
        }
    }

    private static String env(Container c, String name) {
        return c.getEnv().stream()
                .filter(e -> e.getName().equals(name))
                .map(EnvVar::getValue)
                .findFirst()
                .orElse(null);
    }
}
