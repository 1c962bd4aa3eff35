package io.etcdworkers.launcher.kube;

import io.etcdworkers.contract.ErrorCode;

/**
 * What became of a Job: read from its conditions and its pod's termination message.
 *
 * @param namespace        the Job's namespace
 * @param jobName          the Job's name
 * @param state            running, succeeded, failed, or still running when the watch gave up
 * @param reason           for failed: the Failed condition's reason (see {@link #failureReason()})
 * @param message          the condition's message, or null
 * @param result           the worker's result from the pod's termination message, or null
 * @param containerExitCode the worker container's exit code as the kubelet saw it, or null
 * @param containerReason  the kubelet's reason for that end ({@code OOMKilled}, {@code Error}...), or null
 * @param memoryLimit      the worker container's memory limit, or null
 */
public record JobOutcome(
        String namespace,
        String jobName,
        State state,
        String reason,
        String message,
        WorkerResult result,
        Integer containerExitCode,
        String containerReason,
        String memoryLimit) {

    /** The kubelet's reason when the kernel killed the container at its memory limit. */
    public static final String OOM_KILLED = "OOMKilled";

    /** An outcome without the container's end (running, stuck, or a Job without pods). */
    public JobOutcome(
            String namespace,
            String jobName,
            State state,
            String reason,
            String message,
            WorkerResult result,
            Integer containerExitCode) {
        this(namespace, jobName, state, reason, message, result, containerExitCode, null, null);
    }

    /** The kernel's OOM killer ended the worker at the container's memory limit (it wrote no result). */
    public boolean oomKilled() {
        return OOM_KILLED.equals(containerReason);
    }

    /** The worker ran out of memory: its heap (it said so, exit 35) or the container's limit (OOMKilled). */
    public boolean outOfMemory() {
        return oomKilled()
                || (result != null
                        && result.exitCode() != null
                        && result.exitCode() == ErrorCode.OUT_OF_MEMORY.exitCode());
    }

    /** Where the Job is. */
    public enum State {
        RUNNING,
        SUCCEEDED,
        FAILED,
        WATCH_TIMED_OUT,
        /** The watch gave up: a worker pod cannot start by itself (the Job keeps running). */
        POD_STUCK
    }

    /** The Job controller's reasons for a Failed condition that the launcher tells apart. */
    public enum FailureReason {
        DEADLINE_EXCEEDED("DeadlineExceeded"),
        BACKOFF_LIMIT_EXCEEDED("BackoffLimitExceeded"),
        POD_FAILURE_POLICY("PodFailurePolicy"),
        OTHER("");

        private final String apiReason;

        FailureReason(String apiReason) {
            this.apiReason = apiReason;
        }

        static FailureReason of(String reason) {
            for (FailureReason r : values()) {
                if (r != OTHER && r.apiReason.equals(reason)) {
                    return r;
                }
            }
            return OTHER;
        }
    }

    /** The typed reason of a failed Job; null unless {@link State#FAILED}. */
    public FailureReason failureReason() {
        return state == State.FAILED ? FailureReason.of(reason) : null;
    }

    /**
     * The exit code the CLI ends with: the worker's own when it reported one, else
     * {@code OUT_OF_MEMORY} (35) for an OOM kill, else the container's, else 0 for success and a
     * {@link LauncherError} code otherwise.
     */
    public int exitCode() {
        if (result != null && result.exitCode() != null && finished()) {
            return result.exitCode();
        }
        if (oomKilled() && finished()) {
            return ErrorCode.OUT_OF_MEMORY.exitCode();
        }
        if (containerExitCode != null && (state == State.SUCCEEDED || state == State.FAILED)) {
            return containerExitCode;
        }
        return switch (state) {
            case SUCCEEDED -> 0;
            case FAILED -> LauncherError.JOB_FAILED_WITHOUT_RESULT.exitCode();
            case RUNNING, WATCH_TIMED_OUT -> LauncherError.WATCH_TIMEOUT.exitCode();
            case POD_STUCK -> LauncherError.POD_STUCK.exitCode();
        };
    }

    public boolean finished() {
        return state == State.SUCCEEDED || state == State.FAILED;
    }
}
