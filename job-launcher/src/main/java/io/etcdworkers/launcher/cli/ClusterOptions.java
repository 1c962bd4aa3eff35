package io.etcdworkers.launcher.cli;

import picocli.CommandLine.Option;

/** Where the Jobs go: namespace and kubeconfig context (current context or in-cluster by default). */
final class ClusterOptions {
    @Option(names = {"-n", "--namespace"}, defaultValue = "default", description = "Namespace of the Jobs (default: ${DEFAULT-VALUE}).")
    String namespace;

    @Option(names = "--context", description = "kubeconfig context (default: the current one, or in-cluster).")
    String context;
}
