package io.etcdworkers.launcher.kube;

import io.etcdworkers.launcher.job.StorageProvider;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the launcher takes from an etcd-druid {@code Etcd} resource ({@code druid.gardener.cloud/v1alpha1}),
 * named as etcd-druid names it (its {@code api/core/v1alpha1/helper.go} and
 * {@code internal/component/configmap/etcdconfig.go}): members {@code <name>-<i>} (with
 * {@code spec.memberNamePrefix}: {@code <prefix>-<name>-<i>}), peer URLs
 * {@code <http|https>://<name>-<i>.<name>-peer.<namespace>.svc:<serverPort>} ({@code https} when
 * {@code spec.etcd.peerUrlTls} is set), the data PVCs {@code <volumeClaimTemplate or name>-<name>-<i>},
 * the initial cluster token {@code etcd-cluster}, the full-snapshot Lease {@code <name>-full-snap}.
 *
 * @param name the Etcd's name
 * @param namespace its namespace
 * @param provider {@code spec.backup.store.provider}, as etcdbrctl names it
 * @param container {@code spec.backup.store.container}
 * @param prefix {@code spec.backup.store.prefix}
 * @param secret {@code spec.backup.store.secretRef.name}
 * @param endpointOverride {@code spec.backup.store.endpointOverride}
 * @param members member name to peer URL, in ordinal order
 * @param claims member name to its data PVC
 * @param gardenerNetwork whether its pods carry Gardener's {@code networking.gardener.cloud/} labels
 *     (then the worker's pods need them to reach the store from a seed that denies egress)
 * @param etcdImage {@code spec.etcd.image}, the members' etcd image, when set
 */
public record DruidEtcd(
        String name,
        String namespace,
        Optional<StorageProvider> provider,
        Optional<String> container,
        String prefix,
        Optional<String> secret,
        Optional<String> endpointOverride,
        Map<String, String> members,
        Map<String, String> claims,
        boolean gardenerNetwork,
        Optional<String> etcdImage) {

    public static final String API_VERSION = "druid.gardener.cloud/v1alpha1";
    public static final String KIND = "Etcd";
    /** The resource, named in full so no API discovery is needed to find it. */
    public static final ResourceDefinitionContext RESOURCE = new ResourceDefinitionContext.Builder()
            .withGroup("druid.gardener.cloud")
            .withVersion("v1alpha1")
            .withKind(KIND)
            .withPlural("etcds")
            .withNamespaced(true)
            .build();
    /** etcd-druid's initial cluster token ({@code defaultInitialClusterToken}). */
    public static final String CLUSTER_TOKEN = "etcd-cluster";

    private static final int DEFAULT_PEER_PORT = 2380;

    /** Reads the resource; refuses what would need guessing (no replicas, additional peer URLs). */
    public static DruidEtcd of(GenericKubernetesResource etcd) {
        String name = etcd.getMetadata().getName();
        String namespace = etcd.getMetadata().getNamespace();
        Map<String, Object> store = map(etcd.get("spec", "backup", "store"));
        Optional<StorageProvider> provider = string(store.get("provider")).map(StorageProvider::parse);
        Optional<String> secret = string(map(store.get("secretRef")).get("name"));
        int replicas = ((Number) Optional.ofNullable(etcd.<Object>get("spec", "replicas"))
                        .orElse(0))
                .intValue();
        Map<String, Object> etcdConfig = map(etcd.get("spec", "etcd"));
        if (etcdConfig.get("additionalAdvertisePeerURLs") instanceof List<?> extra && !extra.isEmpty()) {
            throw new IllegalArgumentException(
                    "Etcd " + namespace + "/" + name + " has additionalAdvertisePeerURLs, which "
                            + "this launcher does not derive: give --initial-cluster with every member's URLs");
        }
        String scheme = etcdConfig.get("peerUrlTls") != null ? "https" : "http";
        int port = etcdConfig.get("serverPort") instanceof Number n ? n.intValue() : DEFAULT_PEER_PORT;
        Optional<String> memberPrefix = string(etcd.get("spec", "memberNamePrefix"));
        String claimTemplate = string(etcd.get("spec", "volumeClaimTemplate")).orElse(name);
        Map<String, String> members = new LinkedHashMap<>();
        Map<String, String> claims = new LinkedHashMap<>();
        for (int i = 0; i < replicas; i++) {
            String pod = name + "-" + i;
            String member = memberPrefix.map(p -> p + "-" + pod).orElse(pod);
            members.put(member, scheme + "://" + pod + "." + name + "-peer." + namespace + ".svc:" + port);
            claims.put(member, claimTemplate + "-" + name + "-" + i);
        }
        boolean gardener = map(etcd.get("spec", "labels")).keySet().stream()
                .anyMatch(k -> k.startsWith("networking.gardener.cloud/"));
        return new DruidEtcd(
                name,
                namespace,
                provider,
                string(store.get("container")),
                string(store.get("prefix")).orElse(""),
                secret,
                string(store.get("endpointOverride")),
                members,
                claims,
                gardener,
                string(etcdConfig.get("image")));
    }

    /** {@code --initial-cluster}: every member's {@code NAME=PEER_URL}; empty with 0 replicas. */
    public Optional<String> initialCluster() {
        if (members.isEmpty()) {
            return Optional.empty();
        }
        List<String> entries = new ArrayList<>();
        members.forEach((m, url) -> entries.add(m + "=" + url));
        return Optional.of(String.join(",", entries));
    }

    /**
     * The etcd minor version the members' image names in its tag ({@code etcd:v3.5.30} is
     * {@code 3.5}); empty when the image is not set or its tag names no etcd version (etcd-druid's
     * etcd-wrapper images are tagged with the wrapper's own version).
     */
    public Optional<String> etcdMinorVersion() {
        return etcdImage.flatMap(image -> {
            String name = image.replaceAll("@.*$", "");
            int colon = name.lastIndexOf(':');
            if (colon < 0 || !name.substring(0, colon).matches(".*(^|/)etcd$")) {
                return Optional.empty();
            }
            Matcher m = Pattern.compile("^v?(\\d+)\\.(\\d+)").matcher(name.substring(colon + 1));
            return m.find() ? Optional.of(m.group(1) + "." + m.group(2)) : Optional.empty();
        });
    }

    public String fullSnapshotLeaseName() {
        return name + "-full-snap";
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : new TreeMap<>();
    }

    private static Optional<String> string(Object value) {
        return value instanceof String s && !s.isBlank() ? Optional.of(s) : Optional.empty();
    }
}
