package io.etcdworkers.launcher.kube;

/**
 * How the launcher itself can fail, and the CLI exit code for each.
 *
 * <p>The codes sit above the workers' (0-40) so that {@code --wait} can pass a worker's exit code
 * through unchanged and a script can still tell the two apart.
 */
public enum LauncherError {
    /** Bad flags or request. Same code as the workers' usage error. */
    USAGE(2),
    /** A Job for the same etcd and kind is still running. */
    TARGET_BUSY(50),
    /** The Job did not finish within the watch timeout; it keeps running. */
    WATCH_TIMEOUT(51),
    /** The Kubernetes API refused or failed a call. */
    KUBERNETES_API(52),
    /** The Job failed and no worker exit code could be read (e.g. the pod never started). */
    JOB_FAILED_WITHOUT_RESULT(53),
    /** No such Job (or it was deleted while being watched). */
    NOT_FOUND(54),
    /**
     * {@code --wait}: the worker pod cannot start and will not by itself (an image that cannot be
     * pulled, or a pod that cannot be scheduled, for longer than the limit); the Job keeps running.
     */
    POD_STUCK(55),
    /** No cluster is configured (no kubeconfig, not in a pod): nothing to talk to. */
    NO_CLUSTER(56),
    /**
     * The API server is older than the rendered Jobs need ({@link KubernetesVersionCheck#MINIMUM});
     * nothing was created. Not the workers' contract: no Job, and so no worker, runs after it.
     */
    CLUSTER_TOO_OLD(57);

    private final int exitCode;

    LauncherError(int exitCode) {
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
