package io.etcdworkers.launcher.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Names stay valid and distinct; labels stay clear of etcd PodDisruptionBudget selectors. */
@Timeout(30)
class JobNamesTest {
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Instant NOW = Instant.parse("2026-11-29T22:00:00Z");

    @ParameterizedTest
    @ValueSource(
            strings = {
                "e",
                "etcd-main",
                "etcd-main-with-a-very-long-name-that-goes-on-and-on-and-on",
                "a.b.c",
                "x2345678901234567890123456789012345678901234567890123456789012"
            })
    void namesAreValidAndFit(String etcd) {
        String job = JobNames.jobName(etcd, WorkerKind.COMPACT, NOW);
        assertThat(job.length()).isLessThanOrEqualTo(63);
        assertThat(job).endsWith("-20261129-220000");
        assertThat(JobNames.cronJobName(etcd).length()).isLessThanOrEqualTo(52);
        assertThat(JobNames.labels(etcd, WorkerKind.RESTORE, job).values())
                .allMatch(v -> v.length() <= 63 && Pattern.matches("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?", v));
        if (!etcd.contains(".")) {
            assertThat(DNS_LABEL.matcher(job).matches()).as(job).isTrue();
        }
    }

    @Test
    void shortNamesAreReadable() {
        assertThat(JobNames.jobName("etcd-main", WorkerKind.RESTORE, NOW))
                .isEqualTo("etcd-main-restore-20261129-220000");
        assertThat(JobNames.cronJobName("etcd-main")).isEqualTo("etcd-main-compaction");
    }

    @Test
    void twoLongNamesWithTheSameStartStayDistinct() {
        String a = "etcd-" + "x".repeat(60) + "-a";
        String b = "etcd-" + "x".repeat(60) + "-b";
        assertThat(JobNames.jobName(a, WorkerKind.RESTORE, NOW))
                .isNotEqualTo(JobNames.jobName(b, WorkerKind.RESTORE, NOW));
        assertThat(JobNames.cronJobName(a)).isNotEqualTo(JobNames.cronJobName(b));
    }

    @Test
    void workerPodsMatchNoEtcdDruidDisruptionBudget() {
        Map<String, String> pod = JobNames.labels("etcd-main", WorkerKind.COMPACT, "etcd-main-compaction");
        // selectors of etcd-druid's PDBs, older and newer
        Map<String, String> oldDruid = Map.of("name", "etcd", "instance", "etcd-main");
        Map<String, String> newDruid =
                Map.of("app.kubernetes.io/managed-by", "etcd-druid", "app.kubernetes.io/part-of", "etcd-main");
        assertThat(matches(oldDruid, pod)).isFalse();
        assertThat(matches(newDruid, pod)).isFalse();
        assertThat(pod).doesNotContainKeys("name", "instance", "app");
    }

    @Test
    void everyRunOfATargetSharesTheTargetSelector() {
        Map<String, String> selector = JobNames.targetSelector("etcd-main", WorkerKind.RESTORE);
        assertThat(matches(selector, JobNames.labels("etcd-main", WorkerKind.RESTORE, "r1")))
                .isTrue();
        assertThat(matches(selector, JobNames.labels("etcd-main", WorkerKind.COMPACT, "c1")))
                .isFalse();
        assertThat(matches(selector, JobNames.labels("etcd-other", WorkerKind.RESTORE, "r2")))
                .isFalse();
    }

    private static boolean matches(Map<String, String> selector, Map<String, String> labels) {
        return selector.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }
}
