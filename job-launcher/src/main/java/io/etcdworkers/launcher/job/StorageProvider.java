package io.etcdworkers.launcher.job;

/** The object stores the workers read; the names are the workers' {@code --storage-provider} values. */
public enum StorageProvider {
    /** Any S3-compatible store; credentials come from a mounted Secret. */
    S3,
    /** A directory bucket, here on a PersistentVolumeClaim mounted into the pod. */
    Local
}
