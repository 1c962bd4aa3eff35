package io.etcdworkers.restore.extract;

/** What {@code extract} writes. */
public enum OutputFormat {
    /** One set of files per key ({@link KeyFiles}). */
    files,
    /** An etcd data dir holding only the prefix's keys, for {@code etcdctl} (offline engine only). */
    etcd
}
