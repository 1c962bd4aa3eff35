package io.etcdworkers.launcher.job;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * The worker pod's volumes and where the container mounts them.
 *
 * <p>The credentials Secret is mounted as etcd-druid mounts the backup Secret (volume
 * {@code etcd-backup-secret}, where {@link StoreCredentials} says: {@code /var/etcd-backup}, or
 * {@code /var/.gcp/} for GCS, none for ECS), so a Secret that works for the etcd's backup sidecar
 * works unchanged. An extract's EncryptionConfiguration comes from a Secret of its own, its one key
 * mounted as {@link ExtractFlags#ENCRYPTION_CONFIG_FILE} whatever the key is called.
 */
final class PodVolumes {
    static final String SCRATCH = "scratch";
    static final String TMP = "tmp";
    static final String CREDENTIALS = "etcd-backup-secret";
    static final String TARGET = "target";
    static final String OUTPUT = "output";
    static final String BUCKET = "bucket";
    static final String ENCRYPTION_CONFIG = "encryption-config";
    /** A copy's source: its Secret as etcd-druid's copy task names the volume, and a Local source's claim. */
    static final String SOURCE_CREDENTIALS = "source-etcd-backup-secret";

    static final String SOURCE_BUCKET = "source-bucket";

    static final String TMP_MOUNT_PATH = "/tmp";
    /** Owner and group may read, nobody else: the pod's fsGroup makes the worker the group. */
    static final int SECRET_MODE = 0440;

    private PodVolumes() {}

    static List<Volume> volumes(JobRequest request) {
        List<Volume> volumes = new ArrayList<>();
        volumes.add(emptyDir(SCRATCH, request.resources().scratchSizeLimit()));
        volumes.add(emptyDir(TMP, request.resources().tmpSizeLimit()));
        StoreRef store = request.store();
        if (StoreCredentials.mountPath(store).isPresent()) {
            volumes.add(new VolumeBuilder()
                    .withName(CREDENTIALS)
                    .withNewSecret()
                    .withSecretName(store.secretName())
                    .withDefaultMode(SECRET_MODE)
                    .endSecret()
                    .build());
        }
        if (store.localClaimName() != null) {
            volumes.add(claim(BUCKET, store.localClaimName(), !writesTheBucket(request)));
        }
        if (request.work() instanceof CopyFlags copy) {
            StoreRef source = copy.source();
            if (StoreCredentials.sourceMountPath(source).isPresent()) {
                volumes.add(new VolumeBuilder()
                        .withName(SOURCE_CREDENTIALS)
                        .withNewSecret()
                        .withSecretName(source.secretName())
                        .withDefaultMode(SECRET_MODE)
                        .endSecret()
                        .build());
            }
            if (source.localClaimName() != null) {
                volumes.add(claim(SOURCE_BUCKET, source.localClaimName(), true));
            }
        }
        if (request.work() instanceof RestoreFlags restore) {
            volumes.add(claim(TARGET, restore.targetClaim(), false));
        }
        if (request.work() instanceof ExtractFlags extract) {
            volumes.add(claim(OUTPUT, extract.outputClaim(), false));
            if (extract.encryptionConfigSecret() != null) {
                volumes.add(new VolumeBuilder()
                        .withName(ENCRYPTION_CONFIG)
                        .withNewSecret()
                        .withSecretName(extract.encryptionConfigSecret())
                        .addNewItem()
                        .withKey(extract.encryptionConfigKey())
                        .withPath(ExtractFlags.DEFAULT_ENCRYPTION_CONFIG_KEY)
                        .endItem()
                        .withDefaultMode(SECRET_MODE)
                        .endSecret()
                        .build());
            }
        }
        return volumes;
    }

    static List<VolumeMount> mounts(JobRequest request) {
        List<VolumeMount> mounts = new ArrayList<>();
        mounts.add(mount(SCRATCH, WorkerArgs.SCRATCH_DIR, false));
        mounts.add(mount(TMP, TMP_MOUNT_PATH, false));
        StoreCredentials.mountPath(request.store()).ifPresent(path -> mounts.add(mount(CREDENTIALS, path, true)));
        if (request.store().localClaimName() != null) {
            // a restore or extract only reads the bucket; a compaction uploads its new full snapshot there
            mounts.add(mount(BUCKET, WorkerArgs.LOCAL_BUCKET_ROOT, !writesTheBucket(request)));
        }
        if (request.work() instanceof CopyFlags copy) {
            StoreCredentials.sourceMountPath(copy.source())
                    .ifPresent(path -> mounts.add(mount(SOURCE_CREDENTIALS, path, true)));
            if (copy.source().localClaimName() != null) {
                mounts.add(mount(SOURCE_BUCKET, WorkerArgs.SOURCE_LOCAL_BUCKET_ROOT, true));
            }
        }
        if (request.work() instanceof RestoreFlags) {
            mounts.add(mount(TARGET, RestoreFlags.TARGET_MOUNT_PATH, false));
        }
        if (request.work() instanceof ExtractFlags extract) {
            mounts.add(mount(OUTPUT, ExtractFlags.OUTPUT_MOUNT_PATH, false));
            if (extract.encryptionConfigSecret() != null) {
                mounts.add(mount(ENCRYPTION_CONFIG, ExtractFlags.ENCRYPTION_CONFIG_MOUNT_PATH, true));
            }
        }
        return mounts;
    }

    /** A compaction uploads its new full snapshot into the bucket, a copy its objects; the others only read. */
    private static boolean writesTheBucket(JobRequest request) {
        return request.kind() == WorkerKind.COMPACT || request.kind() == WorkerKind.COPY;
    }

    private static Volume emptyDir(String name, String sizeLimit) {
        return new VolumeBuilder()
                .withName(name)
                .withNewEmptyDir()
                .withSizeLimit(new Quantity(sizeLimit))
                .endEmptyDir()
                .build();
    }

    private static Volume claim(String name, String claimName, boolean readOnly) {
        return new VolumeBuilder()
                .withName(name)
                .withNewPersistentVolumeClaim()
                .withClaimName(claimName)
                .withReadOnly(readOnly ? true : null)
                .endPersistentVolumeClaim()
                .build();
    }

    private static VolumeMount mount(String name, String path, boolean readOnly) {
        return new VolumeMountBuilder()
                .withName(name)
                .withMountPath(path)
                .withReadOnly(readOnly ? true : null)
                .build();
    }
}
