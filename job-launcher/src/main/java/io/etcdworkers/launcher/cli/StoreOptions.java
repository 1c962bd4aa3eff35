package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.job.StorageProvider;
import io.etcdworkers.launcher.job.StoreRef;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** The workers' store flags, plus the Secret and claim the pod needs to reach the store. */
final class StoreOptions {
    @Option(
            names = "--storage-provider",
            converter = ProviderConverter.class,
            paramLabel = "S3|ABS|GCS|Swift|OSS|ECS|OCS|Local",
            description = {
                "etcdbrctl's name, or etcd-druid's (aws, stackit, azure, gcp, openstack, alicloud, dell, "
                        + "openshift, or the name in lower case). Every provider is rendered as etcd-druid renders it; "
                        + "this version's workers read every one of them (S3, ABS, GCS, Swift, OSS, ECS, OCS and Local). "
                        + "Required unless --from-etcd gives it."
            })
    StorageProvider provider;

    @Option(
            names = "--store-container",
            description = "Bucket (or ABS container), or the directory on --store-claim (Local). Required unless "
                    + "--from-etcd gives it.")
    String container;

    @Option(names = "--store-prefix", defaultValue = "", description = "Prefix of the backups in the bucket.")
    String prefix;

    @Option(
            names = "--store-endpoint-override",
            description =
                    "Endpoint URL passed to the worker (an S3-compatible " + "store's, Azurite's account URL, ...).")
    String endpointOverride;

    @Option(
            names = "--store-secret",
            description =
                    "Secret with the store credentials, as the etcd's backup sidecar uses "
                            + "it; required but for Local. Mounted at /var/etcd-backup (GCS: /var/.gcp/), ECS: passed as variables.")
    String secret;

    @Option(names = "--store-claim", description = "Local: PersistentVolumeClaim holding the bucket directory.")
    String claim;

    StoreRef toStoreRef() {
        if (provider == null || container == null) {
            throw new IllegalArgumentException("give --storage-provider and --store-container, or --from-etcd to take "
                    + "them from the Etcd resource");
        }
        return new StoreRef(provider, container, prefix == null ? "" : prefix, endpointOverride, secret, claim);
    }

    /** etcd-druid's spellings too; anything else is a usage error (exit 2) listing the names. */
    static final class ProviderConverter implements ITypeConverter<StorageProvider> {
        @Override
        public StorageProvider convert(String value) {
            try {
                return StorageProvider.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
