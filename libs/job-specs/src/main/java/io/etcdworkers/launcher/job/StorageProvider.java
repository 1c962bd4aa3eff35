package io.etcdworkers.launcher.job;

import io.etcdworkers.contract.StorageProviders;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The object stores a worker may be pointed at, by etcdbrctl's names (the workers'
 * {@code --storage-provider} values). The launcher renders every provider etcd-druid knows, and
 * this version's workers open each of them.
 */
public enum StorageProvider {
    /** AWS S3 or any S3-compatible store. */
    S3,
    /** Azure Blob Storage. */
    ABS,
    /** Google Cloud Storage. */
    GCS,
    /** OpenStack Swift. */
    Swift,
    /** Alibaba Cloud OSS. */
    OSS,
    /** Dell ECS. */
    ECS,
    /** OpenShift Container Storage (its S3 endpoint). */
    OCS,
    /** A directory bucket, here on a PersistentVolumeClaim mounted into the pod. */
    Local;

    /**
     * The provider for etcdbrctl's name or one of etcd-druid's spellings ({@code aws}, {@code alicloud},
     * {@code oss}, ...: {@link StorageProviders}).
     *
     * @throws IllegalArgumentException for anything etcd-druid would not take either
     */
    public static StorageProvider parse(String spelling) {
        return StorageProviders.etcdbrctlName(spelling == null ? null : spelling.strip())
                .map(StorageProvider::valueOf)
                .orElseThrow(() -> new IllegalArgumentException("unknown storage provider \"" + spelling
                        + "\"; expected one of "
                        + Arrays.stream(values())
                                .map(p -> p.name() + spellings(p))
                                .collect(Collectors.joining(", "))));
    }

    private static String spellings(StorageProvider p) {
        var infrastructure = StorageProviders.infrastructureNames(p.name());
        return infrastructure.isEmpty() ? "" : " (" + String.join(", ", infrastructure) + ")";
    }
}
