package io.etcdworkers.compaction.contract;

import static io.etcdworkers.compaction.contract.LauncherArgsContractTest.EVERY_COMPACT_FLAG;
import static io.etcdworkers.compaction.contract.LauncherArgsContractTest.EVERY_TRIGGER_OFF;
import static io.etcdworkers.compaction.contract.LauncherArgsContractTest.EVERY_TRIGGER_SET;
import static io.etcdworkers.compaction.contract.LauncherArgsContractTest.MINIMAL_RESTORE;
import static io.etcdworkers.compaction.contract.LauncherArgsContractTest.S3;
import static io.etcdworkers.compaction.contract.LauncherArgsContractTest.S3_FULL;
import static io.etcdworkers.compaction.contract.LauncherArgsContractTest.compact;
import static io.etcdworkers.compaction.contract.LauncherArgsContractTest.compactionConfig;
import static io.etcdworkers.compaction.contract.LauncherArgsContractTest.rebuildConfig;
import static io.etcdworkers.compaction.contract.LauncherArgsContractTest.restore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.compaction.compact.CompactionConfig;
import io.etcdworkers.compaction.compact.CompactionThresholds;
import io.etcdworkers.compaction.lease.LeaseRenewal;
import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.format.codec.Compression;
import io.etcdworkers.launcher.cli.CliContext;
import io.etcdworkers.launcher.cli.LauncherCli;
import io.etcdworkers.launcher.job.CompactFlags;
import io.etcdworkers.launcher.job.DefragFlags;
import io.etcdworkers.launcher.job.JobRequest;
import io.etcdworkers.launcher.job.WorkerKind;
import io.etcdworkers.rebuild.engine.Engine;
import io.etcdworkers.rebuild.replay.DefragPolicyConfig;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The compaction's and the defragmentation's Job args, as {@link LauncherArgsContractTest} checks
 * the rest: thresholds, triggers, compression and the largest counts, rendered by the launcher's
 * own factory and read back by the worker's own parser and configuration.
 */
class CompactionArgsContractTest {
    @Test
    void zeroMinimumsAreNoMinimumInTheWorker() {
        WorkerPod pod = WorkerPod.of(
                compact(S3, new CompactFlags(0L, 0L, 0L, null, null, null, false, null), DefragFlags.workerDefaults()));
        assertThat(pod.args()).contains("--min-delta-revisions=0", "--min-delta-snapshots=0", "--min-delta-bytes=0");
        assertThat(compactionConfig(pod).thresholds()).isEqualTo(CompactionThresholds.none());
    }

    @Test
    void zeroSwitchesEveryTriggerOffInTheWorker() {
        for (JobRequest request : List.of(
                restore(S3, MINIMAL_RESTORE, EVERY_TRIGGER_OFF), compact(S3, CompactFlags.none(), EVERY_TRIGGER_OFF))) {
            WorkerPod pod = WorkerPod.of(request);
            assertThat(pod.args())
                    .contains(
                            "--defrag-every-events=0",
                            "--defrag-every-deltas=0",
                            "--defrag-db-size-bytes=0",
                            "--defrag-fragmentation-ratio=0.0",
                            "--defrag-interval=0s");

            DefragPolicyConfig policy = pod.defrag().toConfig();
            assertThat(policy)
                    .isEqualTo(new DefragPolicyConfig(
                            0, 0, 0, 0, Duration.ZERO, DefragPolicyConfig.DEFAULT_MIN_DB_SIZE_FOR_RATIO));
        }
    }

    @Test
    void setTriggersLandAsSetAndUnsetOnesKeepTheWorkersDefaults() {
        WorkerPod set = WorkerPod.of(restore(S3, MINIMAL_RESTORE, EVERY_TRIGGER_SET));
        DefragPolicyConfig policy = set.defrag().toConfig();
        assertThat(policy.everyEvents()).isEqualTo(1000);
        assertThat(policy.everyDeltas()).isEqualTo(10);
        assertThat(policy.dbSizeBytes()).isEqualTo(1L << 30);
        assertThat(policy.fragmentationRatio()).isEqualTo(0.25);
        assertThat(policy.interval()).isEqualTo(Duration.ofSeconds(90));
        assertThat(rebuildConfig(set).engine()).isEqualTo(Engine.REPLAY);

        WorkerPod defaults = WorkerPod.of(restore(S3, MINIMAL_RESTORE, DefragFlags.workerDefaults()));
        assertThat(defaults.defrag().toConfig()).isEqualTo(DefragPolicyConfig.defaults());
        assertThat(rebuildConfig(defaults).engine()).isEqualTo(Engine.AUTO);
    }

    @Test
    void zeroGivenToTheLaunchersCommandLineIsOffInTheWorker() {
        StringWriter yaml = new StringWriter();
        CliContext launcher = new CliContext(
                Map.of(),
                WorkerPod.CLOCK,
                context -> {
                    throw new AssertionError("--dry-run needs no cluster");
                },
                new PrintWriter(yaml, true),
                new PrintWriter(new StringWriter(), true));
        assertThat(LauncherCli.execute(
                        launcher,
                        "compact",
                        "-n",
                        "shoot--dev",
                        "--etcd",
                        "etcd-main",
                        "--image",
                        "img:1",
                        "--storage-provider",
                        "S3",
                        "--store-container",
                        "etcd-backups",
                        "--store-secret",
                        "etcd-backup",
                        "--dry-run",
                        "--defrag-every-events",
                        "0",
                        "--defrag-every-deltas",
                        "0",
                        "--defrag-db-size-bytes",
                        "0",
                        "--defrag-fragmentation-ratio",
                        "0",
                        "--defrag-interval",
                        "0"))
                .isZero();

        WorkerPod pod =
                WorkerPod.of(WorkerKind.COMPACT, new KubernetesSerialization().unmarshal(yaml.toString(), Job.class));
        assertThat(pod.defrag().toConfig())
                .as("every trigger off")
                .isEqualTo(new DefragPolicyConfig(
                        0, 0, 0, 0, Duration.ZERO, DefragPolicyConfig.DEFAULT_MIN_DB_SIZE_FOR_RATIO));
    }

    @Test
    void compactionFlagsLandWhereTheRequestMeantThem() {
        WorkerPod pod = WorkerPod.of(compact(S3_FULL, EVERY_COMPACT_FLAG, DefragFlags.workerDefaults()));

        CompactionConfig config = compactionConfig(pod);
        assertThat(config.thresholds()).isEqualTo(new CompactionThresholds(5000, 6, 7L << 20));
        assertThat(config.compression()).contains(Compression.LZW);
        assertThat(config.defragment()).isFalse();
        assertThat(config.rebuild().replay().defragTimeout()).isEqualTo(Duration.ofMinutes(8));
        assertThat(pod.<Boolean>value(WorkerFlags.ENABLE_SNAPSHOT_LEASE_RENEWAL))
                .isTrue();
        assertThat(pod.<String>value(WorkerFlags.FULL_SNAPSHOT_LEASE_NAME)).isEqualTo("etcd-main-full-snap");
        // the launcher leaves --lease-renewal out: a renewal that fails fails the Job, with exit 23
        assertThat(LeaseRenewal.Policy.parse(pod.value("--lease-renewal"))).isEqualTo(LeaseRenewal.Policy.REQUIRED);

        WorkerPod plain = WorkerPod.of(compact(S3, CompactFlags.none(), DefragFlags.workerDefaults()));
        assertThat(compactionConfig(plain).defragment())
                .as("the worker's default")
                .isTrue();
        assertThat(plain.<Boolean>value(WorkerFlags.ENABLE_SNAPSHOT_LEASE_RENEWAL))
                .isFalse();
    }

    @Test
    void everyCompressionPolicyTheLauncherAllowsIsOneOfTheWorkers() {
        for (String policy : WorkerFlags.COMPRESSION_POLICIES) {
            WorkerPod pod = WorkerPod.of(compact(
                    S3,
                    new CompactFlags(null, null, null, policy, null, null, false, null),
                    DefragFlags.workerDefaults()));
            assertThat(compactionConfig(pod).compression())
                    .map(Compression::policyName)
                    .contains(policy);
        }
    }

    @Test
    void theLargestCountsTheLauncherAcceptsFitTheWorkersOptions() {
        WorkerPod pod = WorkerPod.of(compact(
                S3,
                new CompactFlags(
                        Long.MAX_VALUE, (long) Integer.MAX_VALUE, Long.MAX_VALUE, null, null, null, false, null),
                new DefragFlags(Long.MAX_VALUE, (long) Integer.MAX_VALUE, Long.MAX_VALUE, null, null, null)));
        assertThat(compactionConfig(pod).thresholds())
                .isEqualTo(new CompactionThresholds(Long.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE));
        assertThat(pod.defrag().toConfig().everyDeltas()).isEqualTo(Integer.MAX_VALUE);
        // one more does not fit the worker's int: the launcher refuses it when the request is made
        assertThatThrownBy(() -> new CompactFlags(null, Integer.MAX_VALUE + 1L, null, null, null, null, false, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DefragFlags(null, Integer.MAX_VALUE + 1L, null, null, null, null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
