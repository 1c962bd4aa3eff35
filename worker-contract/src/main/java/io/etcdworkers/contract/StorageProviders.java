package io.etcdworkers.contract;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The storage providers by {@code etcdbrctl}'s names ({@code --storage-provider}), and how an
 * {@code Etcd} resource's {@code spec.backup.store.provider} maps onto them. The mapping is
 * etcd-druid's {@code StorageProviderFromInfraProvider} ({@code internal/store/store.go}): a name
 * is taken as etcdbrctl spells it, in lower case, or as the infrastructure it runs on
 * ({@code aws}, {@code azure}, ...; {@code stackit} is S3-compatible). Anything else is refused.
 *
 * <p>Both the launcher and the workers read {@code --storage-provider} through this mapping, so a
 * spelling one accepts the other does too; which providers a worker build can open is the
 * worker's business.
 */
public final class StorageProviders {
    /** etcdbrctl's names, in etcd-druid's order. */
    public static final List<String> NAMES = List.of("S3", "ABS", "GCS", "Swift", "OSS", "ECS", "OCS", "Local");

    private static final Map<String, String> INFRASTRUCTURE = Map.of(
            "aws",
            "S3",
            "stackit",
            "S3",
            "azure",
            "ABS",
            "gcp",
            "GCS",
            "openstack",
            "Swift",
            "alicloud",
            "OSS",
            "dell",
            "ECS",
            "openshift",
            "OCS");

    private StorageProviders() {}

    /** etcdbrctl's name for {@code spelling} (exact: {@code Azure} and {@code AWS} are not names), or none. */
    public static Optional<String> etcdbrctlName(String spelling) {
        if (spelling == null) {
            return Optional.empty();
        }
        for (String name : NAMES) {
            if (name.equals(spelling) || name.toLowerCase(Locale.ROOT).equals(spelling)) {
                return Optional.of(name);
            }
        }
        return Optional.ofNullable(INFRASTRUCTURE.get(spelling));
    }

    /** etcd-druid's infrastructure names for an etcdbrctl name ({@code S3}: aws, stackit), sorted. */
    public static List<String> infrastructureNames(String etcdbrctlName) {
        return INFRASTRUCTURE.entrySet().stream()
                .filter(e -> e.getValue().equals(etcdbrctlName))
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }
}
