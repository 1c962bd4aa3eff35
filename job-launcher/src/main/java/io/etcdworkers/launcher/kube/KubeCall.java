package io.etcdworkers.launcher.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.function.Supplier;

/** One call to the Kubernetes API, its failure turned into a {@link LauncherException} that says why. */
final class KubeCall {
    private KubeCall() {}

    /** The call's result; a refused or failed call throws, naming {@code what} and the root cause. */
    static <T> T run(Supplier<T> call, String what) {
        try {
            return call.get();
        } catch (KubernetesClientException e) {
            throw failure(what, e);
        }
    }

    /** {@link LauncherError#NOT_FOUND} for a 404, {@link LauncherError#KUBERNETES_API} otherwise. */
    static LauncherException failure(String what, KubernetesClientException e) {
        if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
            return new LauncherException(LauncherError.NOT_FOUND, "could not " + what + ": not found", e);
        }
        return new LauncherException(
                LauncherError.KUBERNETES_API, "could not " + what + ": " + e.getMessage() + rootCause(e), e);
    }

    /** fabric8's message names the operation; the root cause says what went wrong (refused, TLS, DNS). */
    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? "" : " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
    }
}
