package io.etcdworkers.launcher.job;

import io.etcdworkers.contract.WorkerEnv;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How the pod gets the store's credentials: exactly as etcd-druid gives them to its backup sidecar
 * and compaction Job ({@code GetProviderEnvVars} in its {@code internal/store/store.go}, the volume
 * mounts of its statefulset builder), so the Secret an etcd uses today works unchanged.
 *
 * <ul>
 *   <li>GCS: the Secret at {@value #GCS_MOUNT_PATH}, {@code GOOGLE_APPLICATION_CREDENTIALS} naming
 *       its {@code serviceaccount.json};</li>
 *   <li>ECS: no volume; {@code ECS_ENDPOINT}, {@code ECS_ACCESS_KEY_ID} and {@code ECS_SECRET_ACCESS_KEY}
 *       from the Secret's {@code endpoint}, {@code accessKeyID} and {@code secretAccessKey} (secretKeyRefs:
 *       the values never appear in the Job);</li>
 *   <li>the others: the Secret at {@value #MOUNT_PATH} and {@code <PROVIDER>_APPLICATION_CREDENTIALS}
 *       naming that directory (AWS, AZURE, OPENSTACK, ALICLOUD, OPENSHIFT);</li>
 *   <li>Local: nothing (a Secret given anyway is mounted at {@value #MOUNT_PATH}).</li>
 * </ul>
 */
final class StoreCredentials {
    /** Where etcd-druid mounts the backup Secret of every provider but GCS. */
    static final String MOUNT_PATH = "/var/etcd-backup";
    /** Where etcd-druid mounts the GCS backup Secret. */
    static final String GCS_MOUNT_PATH = "/var/.gcp/";
    /** Read by Google's SDKs themselves; etcd-druid points it at the mounted service account key. */
    static final String GOOGLE_APPLICATION_CREDENTIALS =
            io.etcdworkers.contract.WorkerEnv.GOOGLE_APPLICATION_CREDENTIALS;
    /** etcdbrctl's Swift credentials directory, which the workers read as etcdbrctl does. */
    static final String OPENSTACK_APPLICATION_CREDENTIALS =
            io.etcdworkers.contract.WorkerEnv.OPENSTACK_APPLICATION_CREDENTIALS;

    private StoreCredentials() {}

    /** Where the Secret is mounted, or none: ECS takes it as variables, and Local needs none. */
    static Optional<String> mountPath(StoreRef store) {
        if (store.secretName() == null || store.provider() == StorageProvider.ECS) {
            return Optional.empty();
        }
        return Optional.of(store.provider() == StorageProvider.GCS ? GCS_MOUNT_PATH : MOUNT_PATH);
    }

    /** The variables that point the worker at its credentials; paths and secretKeyRefs, never a value of the Secret. */
    static List<EnvVar> env(StoreRef store) {
        return switch (store.provider()) {
            case S3 -> List.of(value(WorkerEnv.AWS_APPLICATION_CREDENTIALS, MOUNT_PATH));
            case ABS -> List.of(value(WorkerEnv.AZURE_APPLICATION_CREDENTIALS, MOUNT_PATH));
            case GCS -> List.of(value(GOOGLE_APPLICATION_CREDENTIALS, GCS_MOUNT_PATH + "serviceaccount.json"));
            case Swift -> List.of(value(OPENSTACK_APPLICATION_CREDENTIALS, MOUNT_PATH));
            case OSS -> List.of(value(WorkerEnv.ALICLOUD_APPLICATION_CREDENTIALS, MOUNT_PATH));
            case OCS -> List.of(value(WorkerEnv.OPENSHIFT_APPLICATION_CREDENTIALS, MOUNT_PATH));
            case ECS ->
                List.of(
                        secretKey(WorkerEnv.ECS_ENDPOINT, store.secretName(), "endpoint"),
                        secretKey(WorkerEnv.ECS_ACCESS_KEY_ID, store.secretName(), "accessKeyID"),
                        secretKey(WorkerEnv.ECS_SECRET_ACCESS_KEY, store.secretName(), "secretAccessKey"));
            case Local -> List.of();
        };
    }

    /** Where etcd-druid's copy task mounts the source store's Secret: every provider but GCS. */
    static final String SOURCE_MOUNT_PATH = "/var/source-etcd-backup";
    /** Where etcd-druid's copy task mounts a GCS source's Secret. */
    static final String SOURCE_GCS_MOUNT_PATH = "/var/.source-gcp/";
    /** etcdbrctl's prefix of the source store's variables. */
    static final String SOURCE_PREFIX = "SOURCE_";

    /** Where a copy's source Secret is mounted, or none (Local; ECS is no source). */
    static Optional<String> sourceMountPath(StoreRef source) {
        if (source.secretName() == null || source.provider() == StorageProvider.ECS) {
            return Optional.empty();
        }
        return Optional.of(source.provider() == StorageProvider.GCS ? SOURCE_GCS_MOUNT_PATH : SOURCE_MOUNT_PATH);
    }

    /**
     * A copy's source variables, as etcd-druid's copy task sets them: {@code SOURCE_} and the target's
     * name, pointing at the source Secret's mount.
     */
    static List<EnvVar> sourceEnv(StoreRef source, String container) {
        List<EnvVar> env = new ArrayList<>();
        env.add(value(SOURCE_PREFIX + WorkerEnv.STORAGE_CONTAINER, container));
        String path = source.provider() == StorageProvider.GCS
                ? SOURCE_GCS_MOUNT_PATH + "serviceaccount.json"
                : SOURCE_MOUNT_PATH;
        for (EnvVar target : env(source)) {
            if (target.getValue() != null) {
                env.add(value(SOURCE_PREFIX + target.getName(), path));
            }
        }
        return env;
    }

    private static EnvVar value(String name, String value) {
        return new EnvVarBuilder().withName(name).withValue(value).build();
    }

    private static EnvVar secretKey(String name, String secret, String key) {
        return new EnvVarBuilder()
                .withName(name)
                .withNewValueFrom()
                .withNewSecretKeyRef()
                .withName(secret)
                .withKey(key)
                .withOptional(false)
                .endSecretKeyRef()
                .endValueFrom()
                .build();
    }
}
