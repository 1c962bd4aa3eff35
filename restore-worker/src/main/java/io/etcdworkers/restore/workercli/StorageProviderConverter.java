package io.etcdworkers.restore.workercli;

import io.etcdworkers.restore.workercli.StoreOptions.Provider;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads {@code --storage-provider} as {@code etcdbrctl} names the providers ({@code Local},
 * {@code S3}, {@code ABS}, {@code GCS}) and as etcd-druid spells them in an {@code Etcd} resource
 * ({@code local}, {@code aws}, {@code azure}, {@code gcp}, {@code stackit}; druid maps them to etcdbrctl's
 * names the same way). Names are exact, as both take them. etcd-backup-restore's other providers
 * are refused with a message saying which ones this version supports (picocli makes it exit 2).
 */
public final class StorageProviderConverter implements ITypeConverter<Provider> {
    /** Every accepted spelling. */
    static final Map<String, Provider> ACCEPTED = Map.of(
            "Local", Provider.Local, "local", Provider.Local,
            "S3", Provider.S3, "aws", Provider.S3, "stackit", Provider.S3,
            "ABS", Provider.ABS, "azure", Provider.ABS,
            "GCS", Provider.GCS, "gcp", Provider.GCS);

    /** etcd-backup-restore's providers not supported yet, with etcd-druid's spelling of each. */
    static final Map<String, String> NOT_YET = Map.of(
            "Swift", "openstack", "OSS", "alicloud", "ECS", "dell", "OCS", "openshift");

    static final String SUPPORTED = "Local (etcd-druid: local), S3 (aws, stackit), ABS (azure) and GCS (gcp)";

    @Override
    public Provider convert(String value) {
        String name = value == null ? "" : value.strip();
        Provider provider = ACCEPTED.get(name);
        if (provider != null) {
            return provider;
        }
        for (Map.Entry<String, String> e : NOT_YET.entrySet()) {
            if (e.getKey().equals(name) || e.getValue().equals(name)) {
                throw new TypeConversionException("the " + e.getKey() + " provider (etcd-druid: " + e.getValue()
                        + ") is not supported by this version, which supports " + SUPPORTED);
            }
        }
        throw new TypeConversionException("unknown storage provider \"" + name + "\"; this version supports "
                + SUPPORTED);
    }
}
