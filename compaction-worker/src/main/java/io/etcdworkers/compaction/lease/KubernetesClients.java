package io.etcdworkers.compaction.lease;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * Makes the Kubernetes client for the Lease update (in-cluster config or kubeconfig, as kubectl
 * finds them); tests give one pointing at a mock server.
 */
public class KubernetesClients {
    public KubernetesClient create() {
        return new KubernetesClientBuilder().build();
    }
}
