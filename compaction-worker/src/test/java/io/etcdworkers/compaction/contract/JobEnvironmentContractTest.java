package io.etcdworkers.compaction.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.launcher.job.CompactFlags;
import io.etcdworkers.launcher.job.DefragFlags;
import io.etcdworkers.launcher.job.RestoreFlags;
import io.etcdworkers.launcher.job.StorageProvider;
import io.etcdworkers.launcher.job.StoreRef;
import io.etcdworkers.launcher.job.WorkerKind;
import io.etcdworkers.restore.workercli.ResultReporter;
import io.etcdworkers.restore.store.S3StoreConfigFactory;
import io.fabric8.kubernetes.api.model.Container;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParseResult;

/**
 * The environment a launcher-built Job gives its worker is what the worker reads, and the
 * worker writes its result where the Job reads its termination message.
 */
class JobEnvironmentContractTest {
    private static final RestoreFlags RESTORE =
            new RestoreFlags("etcd-main-0", null, null, null, null, null, false, false, null, null);

    @Test
    void anS3JobNamesTheBucketAndTheMountedCredentialsAsTheWorkerReadsThem() {
        WorkerPod pod = WorkerPod.of(LauncherArgsContractTest.restore(
                new StoreRef(StorageProvider.S3, "etcd-backups", "", null, "etcd-backup", null), RESTORE,
                DefragFlags.workerDefaults()));

        assertThat(pod.env()).containsOnlyKeys("JAVA_TOOL_OPTIONS", S3StoreConfigFactory.CONTAINER_ENV,
                S3StoreConfigFactory.CREDENTIALS_DIR_ENV);
        // a path, never a credential: the directory the backup Secret is mounted at, read-only
        String credentials = pod.env().get(S3StoreConfigFactory.CREDENTIALS_DIR_ENV);
        assertThat(container(pod).getVolumeMounts())
                .anyMatch(m -> m.getMountPath().equals(credentials) && Boolean.TRUE.equals(m.getReadOnly()));
    }

    @Test
    void storageContainerAloneGivesTheWorkerItsContainer() {
        WorkerPod pod = WorkerPod.of(LauncherArgsContractTest.compact(
                new StoreRef(StorageProvider.Local, "etcd-main", "", null, null, "bucket-pvc"), CompactFlags.none(),
                DefragFlags.workerDefaults()));
        assertThat(pod.env()).containsOnlyKeys("JAVA_TOOL_OPTIONS", S3StoreConfigFactory.CONTAINER_ENV);

        List<String> withoutFlag = pod.args().stream()
                .filter(a -> !a.startsWith(WorkerFlags.STORE_CONTAINER + "=")).toList();
        ParseResult parsed = WorkerPod.parse(WorkerKind.COMPACT, pod.command(), withoutFlag, pod.env());
        String container = parsed.subcommand().commandSpec().findOption(WorkerFlags.STORE_CONTAINER).getValue();
        assertThat(container).isEqualTo(pod.<String>value(WorkerFlags.STORE_CONTAINER))
                .isEqualTo("/var/etcd-bucket/etcd-main");
    }

    @Test
    void theWorkerWritesItsResultWhereTheJobReadsItsTerminationMessage() {
        WorkerPod pod = WorkerPod.of(LauncherArgsContractTest.compact(
                new StoreRef(StorageProvider.S3, "etcd-backups", "", null, "etcd-backup", null), CompactFlags.none(),
                DefragFlags.workerDefaults()));

        assertThat(container(pod).getTerminationMessagePath())
                .isEqualTo(ResultReporter.DEFAULT_TERMINATION_LOG.toString());
        assertThat(pod.args()).noneMatch(a -> a.startsWith("--result-file"));
    }

    private static Container container(WorkerPod pod) {
        return pod.job().getSpec().getTemplate().getSpec().getContainers().get(0);
    }
}
