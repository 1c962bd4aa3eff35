package io.etcdworkers.integration.pod;

import io.etcdworkers.launcher.kube.KubernetesVersionCheck;
import io.etcdworkers.testsupport.pod.ClusterAccess;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.server.mock.KubernetesClientBuilderCustomizer;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;

/**
 * fabric8's mock API server in CRUD mode (it keeps what is created, answers lists, label selectors
 * and watches), over HTTPS on loopback with its own certificate (for {@code localhost} and
 * {@code 127.0.0.1}): the cluster the launcher's kubeconfig names and a pod's ServiceAccount token
 * reaches. It checks no token and no RBAC.
 */
final class ApiServer implements AutoCloseable {
    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final String caPem;

    private ApiServer(KubernetesMockServer server, Duration clientTimeout) {
        this.server = server;
        this.client = clientTimeout == null
                ? server.createClient()
                : server.createClient(new KubernetesClientBuilderCustomizer()
                        .andThen(b -> b.editOrNewConfig()
                                .withConnectionTimeout((int) clientTimeout.toMillis())
                                .withRequestTimeout((int) clientTimeout.toMillis())
                                .endConfig()));
        try {
            this.caPem =
                    Files.readString(Path.of(server.getSelfSignedCertificate().certificatePath()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ApiServer start() {
        return start(null);
    }

    /**
     * A server whose test client waits {@code clientTimeout} (instead of 10 s) to connect and for each
     * answer: for a machine so loaded that the mock's first HTTPS answers take longer.
     */
    static ApiServer start(Duration clientTimeout) {
        // mixed: CRUD for the objects, and the server's own answers on / and /version
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        KubernetesMockServer server = new KubernetesMockServer(
                new Context(), new MockWebServer(), responses, new KubernetesMixedDispatcher(responses), true);
        server.init(InetAddress.getLoopbackAddress(), 0);
        // the mock's /version says 0.0, which the launcher refuses: report the oldest release its Jobs run on
        String minor = String.valueOf(KubernetesVersionCheck.MINIMUM_MINOR);
        server.setVersionInfo(new VersionInfo.Builder()
                .withMajor("1")
                .withMinor(minor)
                .withGitVersion("v1." + minor + ".0")
                .build());
        return new ApiServer(server, clientTimeout);
    }

    /** The test's own client (it trusts the server's certificate). */
    KubernetesClient client() {
        return client;
    }

    /** What a pod needs to reach this server as its cluster. */
    ClusterAccess access() {
        return new ClusterAccess("localhost", server.getPort(), "pod-service-account-token", caPem);
    }

    /** Writes a kubeconfig for this server (its CA, a token, the namespace {@code demo}); returns its path. */
    Path kubeconfig(Path file) {
        try {
            Path ca = file.resolveSibling(file.getFileName() + "-ca.crt");
            Files.writeString(ca, caPem);
            Files.writeString(
                    file,
                    String.join(
                            "\n",
                            "apiVersion: v1",
                            "kind: Config",
                            "clusters:",
                            "- name: test",
                            "  cluster:",
                            "    server: https://localhost:" + server.getPort(),
                            "    certificate-authority: " + ca,
                            "contexts:",
                            "- name: test",
                            "  context:",
                            "    cluster: test",
                            "    user: test",
                            "    namespace: demo",
                            "current-context: test",
                            "users:",
                            "- name: test",
                            "  user:",
                            "    token: launcher-token",
                            ""));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
