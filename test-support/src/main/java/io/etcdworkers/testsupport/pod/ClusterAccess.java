package io.etcdworkers.testsupport.pod;

import java.util.Objects;

/**
 * The API server a pod reaches as a kubelet sets it up: {@code KUBERNETES_SERVICE_HOST} and
 * {@code _PORT} in every container's environment, and for a pod that mounts its ServiceAccount's
 * token, {@code token}, {@code ca.crt} and {@code namespace} under
 * {@value #SERVICE_ACCOUNT_DIR}. On one machine the "service" is a server on loopback, reached
 * through the host's network.
 *
 * @param host      the name the server's certificate is for ({@code localhost})
 * @param port      its port on loopback
 * @param token     the ServiceAccount token the pod gets
 * @param caPem     the certificate (PEM) the client is to trust for the server
 */
public record ClusterAccess(String host, int port, String token, String caPem) {
    /** Where a kubelet projects the ServiceAccount's token (the {@code kube-api-access-*} volume). */
    public static final String SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

    public ClusterAccess {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(caPem, "caPem");
    }
}
