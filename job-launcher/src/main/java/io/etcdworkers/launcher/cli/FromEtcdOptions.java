package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.kube.DruidEtcd;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --from-etcd NAME}: take the Job's settings from etcd-druid's {@code Etcd} resource of that
 * name in the namespace (read from the cluster, also with {@code --dry-run}); every flag given
 * still wins over what the resource says.
 */
final class FromEtcdOptions {
    @Option(names = "--from-etcd", paramLabel = "NAME",
            description = "Read etcd-druid's Etcd resource NAME (druid.gardener.cloud/v1alpha1) in the namespace and take "
                    + "from it what is not given: --etcd, the store (provider, container, prefix, Secret, endpoint), "
                    + "and for a restore every member's name, peer URL and PVC (--member-claims, --initial-cluster, "
                    + "token), for a compaction the full-snapshot Lease; Gardener's network labels when its pods have "
                    + "them. Contacts the cluster even with --dry-run.")
    String fromEtcd;

    /** The resource, when {@code --from-etcd} was given; a missing one is a usage error naming it. */
    Optional<DruidEtcd> read(CliContext ctx, ClusterOptions cluster, String namespace) {
        if (fromEtcd == null) {
            return Optional.empty();
        }
        GenericKubernetesResource etcd = cluster.client(ctx).genericKubernetesResources(DruidEtcd.RESOURCE)
                .inNamespace(namespace).withName(fromEtcd).get();
        if (etcd == null) {
            throw new IllegalArgumentException("no Etcd " + namespace + "/" + fromEtcd + " (" + DruidEtcd.API_VERSION
                    + "): check --from-etcd and -n");
        }
        return Optional.of(DruidEtcd.of(etcd));
    }

    /** Fills what the flags left open from the resource: the Job's target and the store. */
    static void applyCommon(DruidEtcd etcd, PodOptions pod, StoreOptions store) {
        if (pod.etcd == null) {
            pod.etcd = etcd.name();
        }
        if (store.provider == null) {
            store.provider = etcd.provider().orElse(null);
        }
        if (store.container == null) {
            store.container = etcd.container().orElse(null);
        }
        if (store.prefix == null || store.prefix.isEmpty()) {
            store.prefix = etcd.prefix();
        }
        if (store.secret == null) {
            store.secret = etcd.secret().orElse(null);
        }
        if (store.endpointOverride == null) {
            store.endpointOverride = etcd.endpointOverride().orElse(null);
        }
        if (etcd.gardenerNetwork()) {
            pod.gardenerNetworkLabels = true;
        }
    }
}
