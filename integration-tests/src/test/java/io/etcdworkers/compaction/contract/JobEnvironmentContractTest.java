package io.etcdworkers.compaction.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.launcher.job.CompactFlags;
import io.etcdworkers.launcher.job.DefragFlags;
import io.etcdworkers.launcher.job.RestoreFlags;
import io.etcdworkers.launcher.job.StorageProvider;
import io.etcdworkers.launcher.job.StoreRef;
import io.etcdworkers.launcher.job.WorkerKind;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.store.s3.S3StoreConfigFactory;
import io.etcdworkers.workercli.ResultReporter;
import io.etcdworkers.workercli.StoreFactory;
import io.etcdworkers.workercli.StoreOptions;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine.ParseResult;

/**
 * The environment a launcher-built Job gives its worker is what the worker reads, and the
 * worker writes its result where the Job reads its termination message.
 */
class JobEnvironmentContractTest {
    private static final RestoreFlags RESTORE =
            RestoreFlags.builder("etcd-main-0").build();

    @Test
    void anS3JobNamesTheBucketAndTheMountedCredentialsAsTheWorkerReadsThem() {
        WorkerPod pod = WorkerPod.of(LauncherArgsContractTest.restore(
                new StoreRef(StorageProvider.S3, "etcd-backups", "", null, "etcd-backup", null),
                RESTORE,
                DefragFlags.workerDefaults()));

        assertThat(pod.env())
                .containsOnlyKeys(
                        "JAVA_TOOL_OPTIONS",
                        S3StoreConfigFactory.CONTAINER_ENV,
                        S3StoreConfigFactory.CREDENTIALS_DIR_ENV);
        // a path, never a credential: the directory the backup Secret is mounted at, read-only
        String credentials = pod.env().get(S3StoreConfigFactory.CREDENTIALS_DIR_ENV);
        assertThat(container(pod).getVolumeMounts())
                .anyMatch(m -> m.getMountPath().equals(credentials) && Boolean.TRUE.equals(m.getReadOnly()));
    }

    /**
     * For every provider the workers read, the credentials the Job gives are enough for the worker to open its
     * store: the Job is parsed as the pod would run it, the Secret (in etcd-druid's layout) is put where the Job
     * mounts it (a temp dir standing in for the mount path) or resolved where the Job references its keys, and
     * the worker's own StoreFactory builds the store (no request is sent).
     */
    @ParameterizedTest
    @CsvSource({
        "S3, 'accessKeyID=AK,secretAccessKey=SK,region=eu-west-1'",
        "ABS, 'storageAccount=acct,storageKey=a2V5'",
        "Swift, 'authURL=https://keystone.example:5000/v3,domainName=Default,tenantName=etcd,username=u,password=p'",
        "Swift, 'authURL=https://keystone.example:5000/v3,domainName=Default,tenantName=etcd,"
                + "applicationCredentialID=id,applicationCredentialName=n,applicationCredentialSecret=s'",
        "OSS, 'accessKeyID=AK,accessKeySecret=SK,storageEndpoint=https://oss-eu-central-1.aliyuncs.com'",
        "ECS, 'endpoint=https://ecs.example:9021,accessKeyID=AK,secretAccessKey=SK'",
        "OCS, 'endpoint=https://s3.openshift-storage.svc,region=noobaa,accessKeyID=AK,secretAccessKey=SK'"
    })
    void theWorkerOpensItsStoreFromTheCredentialsTheJobGives(String provider, String secretKeys, @TempDir Path mounted)
            throws IOException {
        Map<String, String> secret = new LinkedHashMap<>();
        for (String pair : secretKeys.split(",")) {
            secret.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
        }
        WorkerPod pod = WorkerPod.of(LauncherArgsContractTest.restore(
                new StoreRef(StorageProvider.valueOf(provider), "etcd-backups", "", null, "etcd-backup", null),
                RESTORE,
                DefragFlags.workerDefaults()));
        Container worker = container(pod);

        Map<String, String> env = new HashMap<>();
        for (EnvVar v : worker.getEnv()) {
            if (v.getValue() != null) {
                env.put(v.getName(), v.getValue());
            } else if (v.getValueFrom().getSecretKeyRef() != null) {
                assertThat(v.getValueFrom().getSecretKeyRef().getName()).isEqualTo("etcd-backup");
                env.put(
                        v.getName(),
                        secret.get(v.getValueFrom().getSecretKeyRef().getKey()));
            }
        }
        for (VolumeMount mount : worker.getVolumeMounts()) {
            if (mount.getName().equals("etcd-backup-secret")) {
                for (Map.Entry<String, String> key : secret.entrySet()) {
                    Files.writeString(mounted.resolve(key.getKey()), key.getValue() + "\n");
                }
                env.replaceAll((name, value) -> value.equals(mount.getMountPath()) ? mounted.toString() : value);
            }
        }
        StoreOptions store = (StoreOptions) pod.spec().mixins().get("store").userObject();
        assertThat(store.provider.name()).isEqualTo(provider);
        try (ObjectStore opened = new StoreFactory(env, mounted).open(store)) {
            assertThat(opened.describe()).contains("etcd-backups");
        }
    }

    @Test
    void storageContainerAloneGivesTheWorkerItsContainer() {
        WorkerPod pod = WorkerPod.of(LauncherArgsContractTest.compact(
                new StoreRef(StorageProvider.Local, "etcd-main", "", null, null, "bucket-pvc"),
                CompactFlags.none(),
                DefragFlags.workerDefaults()));
        assertThat(pod.env()).containsOnlyKeys("JAVA_TOOL_OPTIONS", S3StoreConfigFactory.CONTAINER_ENV);

        List<String> withoutFlag = pod.args().stream()
                .filter(a -> !a.startsWith(WorkerFlags.STORE_CONTAINER + "="))
                .toList();
        ParseResult parsed = WorkerPod.parse(WorkerKind.COMPACT, pod.command(), withoutFlag, pod.env());
        String container = parsed.subcommand()
                .commandSpec()
                .findOption(WorkerFlags.STORE_CONTAINER)
                .getValue();
        assertThat(container)
                .isEqualTo(pod.<String>value(WorkerFlags.STORE_CONTAINER))
                .isEqualTo("/var/etcd-bucket/etcd-main");
    }

    @Test
    void theWorkerWritesItsResultWhereTheJobReadsItsTerminationMessage() {
        WorkerPod pod = WorkerPod.of(LauncherArgsContractTest.compact(
                new StoreRef(StorageProvider.S3, "etcd-backups", "", null, "etcd-backup", null),
                CompactFlags.none(),
                DefragFlags.workerDefaults()));

        assertThat(container(pod).getTerminationMessagePath())
                .isEqualTo(ResultReporter.DEFAULT_TERMINATION_LOG.toString());
        assertThat(pod.args()).noneMatch(a -> a.startsWith("--result-file"));
    }

    private static Container container(WorkerPod pod) {
        return pod.job().getSpec().getTemplate().getSpec().getContainers().get(0);
    }
}
