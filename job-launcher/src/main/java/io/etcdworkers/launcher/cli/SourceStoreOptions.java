package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.job.StorageProvider;
import io.etcdworkers.launcher.job.StoreRef;
import io.etcdworkers.launcher.kube.DruidEtcd;
import picocli.CommandLine.Option;

/**
 * A copy's source store: the store flags with etcdbrctl's {@code --source-} prefix, plus the Secret or
 * claim the pod needs to reach it (mounted as etcd-druid's copy task mounts them).
 */
final class SourceStoreOptions {
    @Option(
            names = "--source-storage-provider",
            converter = StoreOptions.ProviderConverter.class,
            paramLabel = "S3|ABS|GCS|Swift|OSS|OCS|Local",
            description = "The source's provider (names as for --storage-provider; ECS cannot be a source). Required "
                    + "unless --from-etcd gives it.")
    StorageProvider provider;

    @Option(
            names = "--source-store-container",
            description = "The source bucket (or ABS container), or the directory on --source-store-claim (Local). "
                    + "Required unless --from-etcd gives it.")
    String container;

    @Option(names = "--source-store-prefix", description = "Prefix of the backups in the source bucket.")
    String prefix;

    @Option(names = "--source-store-endpoint-override", description = "The source's endpoint URL.")
    String endpointOverride;

    @Option(
            names = "--source-store-secret",
            description = "Secret with the source's credentials; required but for Local. Mounted at "
                    + "/var/source-etcd-backup (GCS: /var/.source-gcp/), named by SOURCE_-prefixed variables.")
    String secret;

    @Option(names = "--source-store-claim", description = "Local source: PersistentVolumeClaim holding its directory.")
    String claim;

    /** What the Etcd resource says, where no flag did: its store is the source a migration copies from. */
    void takeFrom(DruidEtcd etcd) {
        if (provider == null) {
            provider = etcd.provider().orElse(null);
        }
        if (container == null) {
            container = etcd.container().orElse(null);
        }
        if (prefix == null || prefix.isEmpty()) {
            prefix = etcd.prefix();
        }
        if (secret == null) {
            secret = etcd.secret().orElse(null);
        }
        if (endpointOverride == null) {
            endpointOverride = etcd.endpointOverride().orElse(null);
        }
    }

    StoreRef toStoreRef() {
        if (provider == null || container == null) {
            throw new IllegalArgumentException("give --source-storage-provider and --source-store-container, or "
                    + "--from-etcd to take them from the Etcd resource");
        }
        return new StoreRef(provider, container, prefix == null ? "" : prefix, endpointOverride, secret, claim);
    }
}
