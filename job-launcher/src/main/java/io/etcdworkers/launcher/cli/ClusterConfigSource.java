package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.kube.LauncherError;
import io.etcdworkers.launcher.kube.LauncherException;
import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the cluster configuration comes from, decided from files and the environment only, as
 * kubectl decides it: the files in {@code KUBECONFIG} (else {@code ~/.kube/config}), else the
 * in-cluster service account ({@code KUBERNETES_SERVICE_HOST}).
 *
 * <p>Nothing here contacts a cluster or runs a kubeconfig's exec plugin: {@link #requireConfigured}
 * fails at once when there is nothing to talk to (fabric8 would fall back to
 * {@code https://kubernetes.default.svc} and fail after its retries), and
 * {@link #contextNamespace} gives {@code --dry-run} the context's namespace without a client.
 *
 * @param env               the process environment
 * @param home              the user's home directory ({@code ~/.kube/config})
 * @param serviceAccountDir where a pod's service account is mounted (its {@code namespace} file)
 */
record ClusterConfigSource(Map<String, String> env, Path home, Path serviceAccountDir) {
    static final Path IN_CLUSTER_DIR = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    ClusterConfigSource {
        env = Map.copyOf(Objects.requireNonNull(env, "env"));
        Objects.requireNonNull(home, "home");
        Objects.requireNonNull(serviceAccountDir, "serviceAccountDir");
    }

    /** The kubeconfig files that exist, in {@code KUBECONFIG} order (first wins, as in kubectl). */
    List<Path> kubeconfigs() {
        String list = env.get("KUBECONFIG");
        List<Path> candidates = new ArrayList<>();
        if (list == null || list.isBlank()) {
            candidates.add(home.resolve(".kube").resolve("config"));
        } else {
            for (String p : list.split(File.pathSeparator)) {
                if (!p.isBlank()) {
                    candidates.add(Path.of(p.strip()));
                }
            }
        }
        return candidates.stream().filter(Files::isRegularFile).toList();
    }

    boolean inCluster() {
        return notBlank(env.get("KUBERNETES_SERVICE_HOST"));
    }

    /** Throws {@link LauncherError#NO_CLUSTER} when neither a kubeconfig nor an in-cluster config exists. */
    void requireConfigured() {
        if (!kubeconfigs().isEmpty() || inCluster() || notBlank(env.get("KUBERNETES_MASTER"))) {
            return;
        }
        String kubeconfig = notBlank(env.get("KUBECONFIG"))
                ? "KUBECONFIG=" + env.get("KUBECONFIG") + " names no existing file"
                : "KUBECONFIG is unset and " + home.resolve(".kube/config") + " does not exist";
        throw new LauncherException(
                LauncherError.NO_CLUSTER,
                "no Kubernetes cluster configured: " + kubeconfig
                        + ", and this is not a pod (KUBERNETES_SERVICE_HOST is unset)",
                null,
                "Point KUBECONFIG at a kubeconfig, or use --dry-run to print the YAML without a cluster.");
    }

    /**
     * The namespace of the named context (null: the current one) as kubectl would use it, or null when
     * the context sets none; in a pod without a kubeconfig, the service account's namespace.
     */
    String contextNamespace(String context) {
        List<Config> configs =
                kubeconfigs().stream().map(ClusterConfigSource::read).toList();
        if (configs.isEmpty()) {
            return inCluster() ? inClusterNamespace().orElse(null) : null;
        }
        String name = context;
        for (Config c : configs) {
            if (name == null && notBlank(c.getCurrentContext())) {
                name = c.getCurrentContext();
            }
        }
        if (name == null) {
            return null;
        }
        for (Config c : configs) {
            for (NamedContext nc : Optional.ofNullable(c.getContexts()).orElse(List.of())) {
                if (name.equals(nc.getName())) {
                    // the first file that defines a context wins, as kubectl merges them
                    String ns = nc.getContext() == null ? null : nc.getContext().getNamespace();
                    return notBlank(ns) ? ns.strip() : null;
                }
            }
        }
        if (context != null) {
            throw new LauncherException(LauncherError.USAGE, "no context " + context + " in " + kubeconfigs());
        }
        return null;
    }

    private Optional<String> inClusterNamespace() {
        Path file = serviceAccountDir.resolve("namespace");
        try {
            return Files.isRegularFile(file)
                    ? Optional.of(Files.readString(file).strip()).filter(s -> !s.isEmpty())
                    : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static Config read(Path file) {
        try {
            Config config = SERIALIZATION.unmarshal(Files.readString(file), Config.class);
            return config == null ? new Config() : config;
        } catch (IOException e) {
            throw new LauncherException(
                    LauncherError.USAGE, "cannot read kubeconfig " + file + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new LauncherException(
                    LauncherError.USAGE, "kubeconfig " + file + " is not valid YAML: " + e.getMessage(), e);
        }
    }

    private static boolean notBlank(String s) {
        return s != null && !s.isBlank();
    }
}
