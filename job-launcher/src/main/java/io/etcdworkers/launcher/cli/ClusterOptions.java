package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.kube.KubernetesVersionCheck;
import io.fabric8.kubernetes.client.KubernetesClient;
import picocli.CommandLine.Option;

/**
 * Where the Jobs go, resolved like kubectl: {@code --namespace}, else the kubeconfig context's (or
 * the in-cluster) namespace, else {@code default}. A dry run never builds a client: it reads the
 * context's namespace from the kubeconfig files alone.
 */
final class ClusterOptions {
    static final String DEFAULT_NAMESPACE = "default";

    @Option(
            names = {"-n", "--namespace"},
            description = "Namespace of the Jobs (default: the context's, else default).")
    String namespace;

    @Option(names = "--context", description = "kubeconfig context (default: the current one, or in-cluster).")
    String context;

    private KubernetesClient client;
    private boolean versionChecked;

    KubernetesClient client(CliContext ctx) {
        if (client == null) {
            client = ctx.clients().apply(context);
        }
        return client;
    }

    /**
     * The client, once the server has said it is new enough for the Jobs and CronJobs the launcher
     * makes ({@link KubernetesVersionCheck}); asked once per run.
     */
    KubernetesClient clientForJobs(CliContext ctx) {
        KubernetesClient c = client(ctx);
        if (!versionChecked) {
            KubernetesVersionCheck.requireSupported(c);
            versionChecked = true;
        }
        return c;
    }

    String namespace(CliContext ctx, boolean offline) {
        if (namespace != null && !namespace.isBlank()) {
            return namespace;
        }
        String fromConfig =
                offline ? ctx.contextNamespaces().apply(context) : client(ctx).getNamespace();
        return fromConfig == null || fromConfig.isBlank() ? DEFAULT_NAMESPACE : fromConfig;
    }
}
