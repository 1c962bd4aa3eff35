package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.kube.DruidEtcd;
import io.etcdworkers.launcher.kube.LauncherError;
import io.etcdworkers.launcher.kube.LauncherException;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --from-etcd NAME}: take the Job's settings from etcd-druid's {@code Etcd} resource of that
 * name in the namespace (read from the cluster, also with {@code --dry-run}); every flag given
 * still wins over what the resource says.
 */
final class FromEtcdOptions {
    @Option(
            names = "--from-etcd",
            paramLabel = "NAME",
            description =
                    "Read etcd-druid's Etcd resource NAME (druid.gardener.cloud/v1alpha1) in the namespace and take "
                            + "from it what is not given: --etcd, the store (provider, container, prefix, Secret, endpoint), "
                            + "and for a restore every member's name, peer URL and PVC (--member-claims, --initial-cluster, "
                            + "token), for a compaction the full-snapshot Lease, for a copy the source store (--source-*: the "
                            + "store a migration leaves); Gardener's network labels when its pods have "
                            + "them. Contacts the cluster even with --dry-run.")
    String fromEtcd;

    /** The resource, when {@code --from-etcd} was given; a missing one is a usage error naming it. */
    Optional<DruidEtcd> read(CliContext ctx, ClusterOptions cluster, String namespace) {
        if (fromEtcd == null) {
            return Optional.empty();
        }
        GenericKubernetesResource etcd = client(ctx, cluster)
                .genericKubernetesResources(DruidEtcd.RESOURCE)
                .inNamespace(namespace)
                .withName(fromEtcd)
                .get();
        if (etcd == null) {
            throw new IllegalArgumentException("no Etcd " + namespace + "/" + fromEtcd + " (" + DruidEtcd.API_VERSION
                    + "): check --from-etcd and -n");
        }
        return Optional.of(DruidEtcd.of(etcd));
    }

    /**
     * The Jobs' namespace: read from the kubeconfig files alone for a dry run without
     * {@code --from-etcd}, else as the cluster's client has it.
     */
    String namespace(CliContext ctx, ClusterOptions cluster, boolean dryRun) {
        if (fromEtcd == null) {
            return cluster.namespace(ctx, dryRun);
        }
        try {
            return cluster.namespace(ctx, false);
        } catch (LauncherException e) {
            throw withoutCluster(e);
        }
    }

    /** The cluster's client; without a cluster, the advice is not the dry run, which reads the resource too. */
    private static KubernetesClient client(CliContext ctx, ClusterOptions cluster) {
        try {
            return cluster.client(ctx);
        } catch (LauncherException e) {
            throw withoutCluster(e);
        }
    }

    private static LauncherException withoutCluster(LauncherException e) {
        if (e.error() != LauncherError.NO_CLUSTER) {
            return e;
        }
        return e.withHelp("--from-etcd reads the Etcd resource from the cluster, also with --dry-run: point"
                + " KUBECONFIG at that cluster, or give --etcd and the store and member flags instead of --from-etcd.");
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
