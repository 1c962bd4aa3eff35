package io.etcdworkers.launcher.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Golden files: each request renders to exactly its {@code out.yaml}; see {@link GoldenCases}. */
@Timeout(60)
public class JobFactoryTest {

    static Stream<String> cases() {
        return GoldenCases.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rendersTheGoldenFile(String name) throws IOException {
        String actual = GoldenCases.yaml(GoldenCases.render(name));
        Path expected = GoldenCases.expected(name);
        if (GoldenCases.UPDATE) {
            Files.writeString(expected, actual, StandardCharsets.UTF_8);
        }
        assertThat(expected)
                .as("golden file (regenerate with -Dgolden.update=true)")
                .exists();
        assertThat(actual).isEqualTo(Files.readString(expected, StandardCharsets.UTF_8));
    }

    @Test
    void theGoldenCasesCoverEveryKindProviderAndOwnership() {
        assertThat(cases().toList())
                .contains(
                        "restore-s3",
                        "restore-local-owner",
                        "compact-s3-owner",
                        "compact-local",
                        "cronjob-s3",
                        "cronjob-local-owner",
                        "restore-placement",
                        "cronjob-gardener",
                        "members-gardener",
                        "members-point-in-time");
    }

    @Test
    void buildingIsPureForAFixedClock() {
        List<HasMetadata> first = GoldenCases.render("restore-s3");
        List<HasMetadata> second = GoldenCases.render("restore-s3");
        assertThat(second).isEqualTo(first);
    }

    @Test
    void repeatedRunsGetDistinctNamesWithTheSameTargetLabels() {
        Job a = new JobFactory(Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC))
                .build(sampleRestore());
        Job b = new JobFactory(Clock.fixed(Instant.parse("2026-11-29T22:00:01Z"), ZoneOffset.UTC))
                .build(sampleRestore());
        assertThat(a.getMetadata().getName()).isEqualTo("etcd-main-restore-20261129-220000");
        assertThat(b.getMetadata().getName()).isNotEqualTo(a.getMetadata().getName());
        assertThat(b.getMetadata().getLabels())
                .containsAllEntriesOf(JobNames.targetSelector("etcd-main", WorkerKind.RESTORE));
        assertThat(a.getMetadata().getLabels())
                .containsAllEntriesOf(JobNames.targetSelector("etcd-main", WorkerKind.RESTORE));
    }

    @Test
    void theScheduledCompactionGetsADefaultThresholdOnlyWhenItHasNone() {
        JobRequest none = sampleCompact(CompactFlags.none());
        assertThat(((CompactFlags) CronJobFactory.withThreshold(none).work()).minDeltaRevisions())
                .isEqualTo(CronJobFactory.DEFAULT_MIN_DELTA_REVISIONS);
        JobRequest own = sampleCompact(new CompactFlags(null, 7L, null, null, null, null, false, null));
        assertThat(CronJobFactory.withThreshold(own)).isSameAs(own);
    }

    @Test
    void aCronJobIsOnlyForCompaction() {
        assertThatThrownBy(() -> new CronJobRequest(sampleRestore(), "0 * * * *", null, null, 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only compaction");
    }

    public static JobRequest sampleRestore() {
        return JobRequest.builder(
                        "etcd-main",
                        "default",
                        "img:1",
                        new StoreRef(StorageProvider.S3, "bucket", "p", null, "etcd-backup", null),
                        RestoreFlags.builder("data-claim").build())
                .backoffLimit(1)
                .build();
    }

    public static JobRequest sampleCompact(CompactFlags flags) {
        return JobRequest.builder(
                        "etcd-main",
                        "default",
                        "img:1",
                        new StoreRef(StorageProvider.S3, "bucket", "p", null, "etcd-backup", null),
                        flags)
                .backoffLimit(1)
                .build();
    }
}
