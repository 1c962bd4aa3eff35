package io.etcdworkers.workercli;

import io.etcdworkers.workercli.StoreOptions.Provider;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads {@code --storage-provider} as {@code etcdbrctl} names the providers ({@code Local},
 * {@code S3}, {@code ABS}, {@code GCS}, {@code Swift}, {@code OSS}, {@code ECS}, {@code OCS}) and as
 * etcd-druid spells them in an {@code Etcd} resource: etcdbrctl's name in lower case, or the
 * infrastructure ({@code aws}, {@code stackit}, {@code azure}, {@code gcp}, {@code openstack},
 * {@code alicloud}, {@code dell}, {@code openshift}), as {@link io.etcdworkers.contract.StorageProviders}
 * (druid's {@code StorageProviderFromInfraProvider}) maps them; {@code Azure} or {@code AWS} are not
 * names to either. An empty value is Local, as etcdbrctl reads it. Anything else is refused with a message saying which ones this version supports
 * (picocli makes it exit 2).
 */
public final class StorageProviderConverter implements ITypeConverter<Provider> {
    /** Every accepted spelling. */
    static final Map<String, Provider> ACCEPTED = Map.ofEntries(
            Map.entry("Local", Provider.Local),
            Map.entry("local", Provider.Local),
            Map.entry("S3", Provider.S3),
            Map.entry("s3", Provider.S3),
            Map.entry("aws", Provider.S3),
            Map.entry("stackit", Provider.S3),
            Map.entry("ABS", Provider.ABS),
            Map.entry("abs", Provider.ABS),
            Map.entry("azure", Provider.ABS),
            Map.entry("GCS", Provider.GCS),
            Map.entry("gcs", Provider.GCS),
            Map.entry("gcp", Provider.GCS),
            Map.entry("Swift", Provider.Swift),
            Map.entry("swift", Provider.Swift),
            Map.entry("openstack", Provider.Swift),
            Map.entry("OSS", Provider.OSS),
            Map.entry("oss", Provider.OSS),
            Map.entry("alicloud", Provider.OSS),
            Map.entry("ECS", Provider.ECS),
            Map.entry("ecs", Provider.ECS),
            Map.entry("dell", Provider.ECS),
            Map.entry("OCS", Provider.OCS),
            Map.entry("ocs", Provider.OCS),
            Map.entry("openshift", Provider.OCS));

    static final String SUPPORTED = "Local (etcd-druid: local), S3 (aws, stackit), ABS (azure), GCS (gcp), "
            + "Swift (openstack), OSS (alicloud), ECS (dell) and OCS (openshift)";

    @Override
    public Provider convert(String value) {
        String name = value == null ? "" : value.strip();
        if (name.isEmpty()) {
            // etcdbrctl reads an empty provider as Local; etcd-druid passes --storage-provider= for an Etcd without one
            return Provider.Local;
        }
        Provider provider = ACCEPTED.get(name);
        if (provider != null) {
            return provider;
        }
        throw new TypeConversionException(
                "unknown storage provider \"" + name + "\"; this version supports " + SUPPORTED);
    }
}
