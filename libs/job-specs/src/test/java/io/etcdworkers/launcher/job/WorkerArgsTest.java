package io.etcdworkers.launcher.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Table tests of the worker flags the launcher passes through. */
@Timeout(30)
class WorkerArgsTest {
    private static final StoreRef S3 = new StoreRef(StorageProvider.S3, "bkt", "", null, "sec", null);
    private static final RestoreFlags MINIMAL_RESTORE =
            RestoreFlags.builder("claim").build();

    static Stream<Arguments> table() {
        return Stream.of(
                Arguments.of(
                        "minimal S3 restore",
                        restore(S3, MINIMAL_RESTORE, DefragFlags.workerDefaults()),
                        List.of(
                                "--storage-provider=S3",
                                "--store-container=bkt",
                                "--scratch-dir=/scratch",
                                "--data-dir=/var/etcd/data/new.etcd")),
                Arguments.of(
                        "prefix and endpoint",
                        restore(
                                new StoreRef(StorageProvider.S3, "bkt", "a/b", "http://127.0.0.1:9000", "sec", null),
                                MINIMAL_RESTORE,
                                DefragFlags.workerDefaults()),
                        List.of(
                                "--storage-provider=S3",
                                "--store-container=bkt",
                                "--store-prefix=a/b",
                                "--store-endpoint-override=http://127.0.0.1:9000",
                                "--scratch-dir=/scratch",
                                "--data-dir=/var/etcd/data/new.etcd")),
                Arguments.of(
                        "Local container lives under the bucket volume",
                        restore(
                                new StoreRef(StorageProvider.Local, "dir", "p", null, null, "pvc"),
                                MINIMAL_RESTORE,
                                DefragFlags.workerDefaults()),
                        List.of(
                                "--storage-provider=Local",
                                "--store-container=/var/etcd-bucket/dir",
                                "--store-prefix=p",
                                "--scratch-dir=/scratch",
                                "--data-dir=/var/etcd/data/new.etcd")),
                Arguments.of(
                        "every restore flag",
                        restore(
                                S3,
                                RestoreFlags.builder("claim")
                                        .dataDir("/var/etcd/data/x")
                                        .name("m0")
                                        .initialCluster("m0=http://m0:2380")
                                        .initialClusterToken("tok")
                                        .initialAdvertisePeerUrls("http://m0:2380")
                                        .skipHashCheck(true)
                                        .force(true)
                                        .embeddedEtcdQuotaBytes(1024L)
                                        .maxFetchers(3)
                                        .build(),
                                DefragFlags.workerDefaults()),
                        List.of(
                                "--storage-provider=S3",
                                "--store-container=bkt",
                                "--scratch-dir=/scratch",
                                "--data-dir=/var/etcd/data/x",
                                "--name=m0",
                                "--initial-cluster=m0=http://m0:2380",
                                "--initial-cluster-token=tok",
                                "--initial-advertise-peer-urls=http://m0:2380",
                                "--skip-hash-check",
                                "--force",
                                "--embedded-etcd-quota-bytes=1024",
                                "--max-fetchers=3")),
                Arguments.of(
                        "every defrag flag",
                        restore(
                                S3,
                                MINIMAL_RESTORE,
                                new DefragFlags(1000L, 10L, 1L << 30, 0.25, Duration.ofSeconds(90), "replay")),
                        List.of(
                                "--storage-provider=S3",
                                "--store-container=bkt",
                                "--scratch-dir=/scratch",
                                "--data-dir=/var/etcd/data/new.etcd",
                                "--engine=replay",
                                "--defrag-every-events=1000",
                                "--defrag-every-deltas=10",
                                "--defrag-db-size-bytes=1073741824",
                                "--defrag-fragmentation-ratio=0.25",
                                "--defrag-interval=1m30s")),
                // 0 is the workers' "off"; only a rendered 0 switches off a trigger that is on by default
                Arguments.of(
                        "zero switches every trigger off",
                        restore(S3, MINIMAL_RESTORE, new DefragFlags(0L, 0L, 0L, 0.0, Duration.ZERO, null)),
                        List.of(
                                "--storage-provider=S3",
                                "--store-container=bkt",
                                "--scratch-dir=/scratch",
                                "--data-dir=/var/etcd/data/new.etcd",
                                "--defrag-every-events=0",
                                "--defrag-every-deltas=0",
                                "--defrag-db-size-bytes=0",
                                "--defrag-fragmentation-ratio=0.0",
                                "--defrag-interval=0s")),
                Arguments.of(
                        "compaction without flags",
                        compact(CompactFlags.none()),
                        List.of("--storage-provider=S3", "--store-container=bkt", "--scratch-dir=/scratch")),
                Arguments.of(
                        "every compaction flag",
                        compact(new CompactFlags(5L, 6L, 7L, "lzw", false, Duration.ofMinutes(8), true, "e-full-snap")),
                        List.of(
                                "--storage-provider=S3",
                                "--store-container=bkt",
                                "--scratch-dir=/scratch",
                                "--min-delta-revisions=5",
                                "--min-delta-snapshots=6",
                                "--min-delta-bytes=7",
                                "--compression-policy=lzw",
                                "--defragment=false",
                                "--etcd-defrag-timeout=8m",
                                "--enable-snapshot-lease-renewal=true",
                                "--full-snapshot-lease-name=e-full-snap")),
                Arguments.of(
                        "every minimum 0: the worker's no minimum, passed on",
                        compact(new CompactFlags(0L, 0L, 0L, null, null, null, false, null)),
                        List.of(
                                "--storage-provider=S3",
                                "--store-container=bkt",
                                "--scratch-dir=/scratch",
                                "--min-delta-revisions=0",
                                "--min-delta-snapshots=0",
                                "--min-delta-bytes=0")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void rendersTheFlags(String name, JobRequest request, List<String> expected) {
        assertThat(WorkerArgs.args(request)).containsExactlyElementsOf(expected);
    }

    @Test
    void leaseRenewalWithoutAServiceAccountOfItsOwnIsRefused() {
        CompactFlags renew = new CompactFlags(null, null, null, null, null, null, true, "e-full-snap");
        assertThatThrownBy(() -> JobRequest.builder("e", "ns", "img", S3, renew)
                        .backoffLimit(1)
                        .build())
                .hasMessageContaining("--enable-snapshot-lease-renewal needs --service-account")
                .hasMessageContaining("default ServiceAccount");
    }

    @Test
    void badFlagValuesAreRefusedWhenTheRequestIsMade() {
        assertThatThrownBy(() -> new CompactFlags(null, null, null, "brotli", null, null, false, null))
                .hasMessageContaining("compression policy");
        assertThatThrownBy(() -> new CompactFlags(null, null, null, null, null, null, true, null))
                .hasMessageContaining("full-snapshot-lease-name");
        assertThatThrownBy(() -> new DefragFlags(null, null, null, 1.5, null, null))
                .hasMessageContaining("ratio");
        assertThatThrownBy(() -> new DefragFlags(-1L, null, null, null, null, null))
                .hasMessage("defrag every events must not be negative (0: off): -1");
        assertThatThrownBy(() -> new DefragFlags(null, null, null, -0.1, null, null))
                .hasMessageContaining("[0, 1)");
        // the workers hold these two in an int: a larger value would be rendered and fail the pod with exit 2
        assertThatThrownBy(() -> new DefragFlags(null, 1L << 31, null, null, null, null))
                .hasMessage("defrag every deltas must be at most 2147483647: 2147483648");
        assertThatThrownBy(() -> new CompactFlags(-1L, null, null, null, null, null, false, null))
                .hasMessage("min delta revisions must not be negative (0: off): -1");
        assertThatThrownBy(() -> new CompactFlags(null, 1L << 31, null, null, null, null, false, null))
                .hasMessage("min delta snapshots must be at most 2147483647: 2147483648");
        assertThatThrownBy(() -> new DefragFlags(null, null, null, null, Duration.ofSeconds(-1), null))
                .hasMessageContaining("defrag interval must not be negative");
        assertThatThrownBy(() -> new DefragFlags(null, null, null, null, null, "fast"))
                .hasMessageContaining("engine");
        assertThatThrownBy(() -> new JobResources("0", "1", "1Gi", "1Gi", "1Gi", "1Gi", 40))
                .hasMessage("cpu request must be positive: 0");
        assertThatThrownBy(() -> new JobResources("1", "1", "lots", "1Gi", "1Gi", "1Gi", 40))
                .hasMessage("memory request is not a Kubernetes quantity: lots");
        assertThatThrownBy(() -> new JobResources("1", "1", "256Mi", "256Mi", "1Gi", "1Gi", 40))
                .hasMessageContaining("less than 128Mi of heap");
        assertThatThrownBy(() -> new JobResources("1", "1", "1Gi", "1Gi", "1Gi", "1Gi", 90))
                .hasMessageContaining("heap percent");
        assertThatThrownBy(
                        () -> RestoreFlags.builder("claim").dataDir("/data/x").build())
                .hasMessageContaining("under /var/etcd/data/");
        assertThatThrownBy(() -> pointInTime(null, "2026-12-01T03:04:05", false))
                .hasMessageContaining("RFC 3339 time with an offset");
        assertThatThrownBy(() -> pointInTime(5L, "2026-12-01T03:04:05Z", false)).hasMessageContaining("not both");
        assertThatThrownBy(() -> pointInTime(0L, null, false)).hasMessageContaining("to-revision");
    }

    @Test
    void pointInTimeFlagsAreRenderedWithTheTimeInUtc() {
        assertThat(WorkerArgs.args(restore(
                        S3, pointInTime(null, "2026-12-01T04:04:05+01:00", true), DefragFlags.workerDefaults())))
                .contains("--to-time=2026-12-01T03:04:05Z", "--to-last-good")
                .noneMatch(a -> a.startsWith("--to-revision"));
        assertThat(WorkerArgs.args(restore(S3, pointInTime(42L, null, false), DefragFlags.workerDefaults())))
                .contains("--to-revision=42")
                .doesNotContain("--to-last-good");
    }

    private static RestoreFlags pointInTime(Long revision, String time, boolean lastGood) {
        return RestoreFlags.builder("claim")
                .toRevision(revision)
                .toTime(time)
                .toLastGood(lastGood)
                .build();
    }

    private static JobRequest restore(StoreRef store, RestoreFlags flags, DefragFlags defrag) {
        return JobRequest.builder("e", "ns", "img", store, flags)
                .defrag(defrag)
                .backoffLimit(1)
                .build();
    }

    private static JobRequest compact(CompactFlags flags) {
        return JobRequest.builder("e", "ns", "img", S3, flags)
                .backoffLimit(1)
                .serviceAccountName(flags.enableSnapshotLeaseRenewal() ? "etcd-workers" : null)
                .build();
    }
}
