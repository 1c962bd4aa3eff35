package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.job.StorageProvider;
import io.etcdworkers.launcher.job.StoreRef;
import picocli.CommandLine.Option;

/** The workers' store flags, plus the Secret and claim the pod needs to reach the store. */
final class StoreOptions {
    @Option(names = "--storage-provider", required = true, description = "S3 or Local.")
    StorageProvider provider;

    @Option(names = "--store-container", required = true, description = "Bucket (S3) or directory on --store-claim (Local).")
    String container;

    @Option(names = "--store-prefix", defaultValue = "", description = "Prefix of the backups in the bucket.")
    String prefix;

    @Option(names = "--store-endpoint-override", description = "S3-compatible endpoint URL.")
    String endpointOverride;

    @Option(names = "--store-secret", description = "Secret with the store credentials, as the etcd's backup sidecar uses it.")
    String secret;

    @Option(names = "--store-claim", description = "Local: PersistentVolumeClaim holding the bucket directory.")
    String claim;

    StoreRef toStoreRef() {
        return new StoreRef(provider, container, prefix, endpointOverride, secret, claim);
    }
}
