package io.etcdworkers.launcher.kube;

import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The launcher's Jobs on one cluster, one call per thing the CLI does with them: create
 * ({@link JobCreator}: one active Job per target), watch ({@link JobWatch}), read the outcome
 * ({@link JobOutcomeReader}), record it ({@link OutcomeRecorder}), list and cancel
 * ({@link LauncherJobs}) and apply CronJobs ({@link CronJobs}).
 */
public class JobLauncher {
    /** The label the Job controller puts on its pods (1.27+); {@code job-name} before that. */
    static final String POD_JOB_LABEL = JobPods.JOB_LABEL;

    /** How long one watch of the Job lasts before the launcher looks at its pods and Events again. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(10);

    private final KubernetesClient client;
    private final JobWatch watch;
    private final JobOutcomeReader outcomes;
    private final LauncherJobs jobs;
    private OutcomeRecorder recorder;

    public JobLauncher(KubernetesClient client) {
        this(client, Clock.systemUTC(), DEFAULT_POLL_INTERVAL);
    }

    /**
     * @param clock        measures the watch timeout and how long a pod has been stuck
     * @param pollInterval how often a watch looks at the pods and Events (real time)
     */
    public JobLauncher(KubernetesClient client, Clock clock, Duration pollInterval) {
        this.client = Objects.requireNonNull(client, "client");
        this.watch = new JobWatch(client, clock, pollInterval);
        this.outcomes = new JobOutcomeReader(client);
        this.jobs = new LauncherJobs(client);
        this.recorder = new OutcomeRecorder(client, null);
    }

    /** Counts the outcomes {@link #recordOutcome} records in {@code metrics}; returns this launcher. */
    public JobLauncher withMetrics(JobMetrics metrics) {
        this.recorder = new OutcomeRecorder(client, Objects.requireNonNull(metrics, "metrics"));
        return this;
    }

    /** Creates the Job unless one for the same target is still active. */
    public Job create(Job job) {
        return new JobCreator(client).create(job);
    }

    /**
     * Records how a Job the launcher watched to its end came out, as a Kubernetes Event on the Job
     * ({@code Normal WorkerSucceeded} or {@code Warning WorkerFailed}, the worker's summary as the
     * message), and in the metrics when {@link #withMetrics} gave some.
     */
    public void recordOutcome(Job job, JobOutcome outcome, Instant now) {
        recorder.record(job, outcome, now);
    }

    /**
     * Waits until the Job is complete or failed, or {@code timeout} passes (the Job keeps running
     * then), calling {@code progress} on every change, and returns the outcome.
     */
    public JobOutcome watch(String namespace, String name, Duration timeout, Consumer<Job> progress) {
        return watch(namespace, name, WatchLimits.of(timeout), progress, line -> {});
    }

    /**
     * Waits until the Job is complete or failed, the timeout passes, or a worker pod cannot start
     * beyond the limits (the Job keeps running in both cases: {@link JobOutcome.State#WATCH_TIMED_OUT},
     * {@link JobOutcome.State#POD_STUCK}). Calls {@code progress} on every Job change and
     * {@code diagnostics} with each new line about the pods: a waiting reason, an unschedulable pod,
     * the latest Events of the Job and its pods.
     */
    public JobOutcome watch(
            String namespace, String name, WatchLimits limits, Consumer<Job> progress, Consumer<String> diagnostics) {
        JobWatch.Result r = watch.run(namespace, name, limits, progress, diagnostics);
        if (r.deleted()) {
            throw new LauncherException(LauncherError.NOT_FOUND, "Job " + name + " in " + namespace + " was deleted");
        }
        if (r.finished() != null) {
            return outcomes.outcome(r.finished());
        }
        if (r.stuck() != null) {
            return new JobOutcome(
                    namespace,
                    name,
                    JobOutcome.State.POD_STUCK,
                    r.stuck().reason(),
                    r.stuck().message() + "; the Job was left running (cancel it, fix the cause, start again)",
                    null,
                    null);
        }
        JobOutcome now = status(namespace, name);
        return now.finished()
                ? now
                : new JobOutcome(
                        namespace,
                        name,
                        JobOutcome.State.WATCH_TIMED_OUT,
                        null,
                        "still running after " + limits.timeout() + "; the Job was left running",
                        null,
                        null);
    }

    /** The Job's outcome now, without waiting. */
    public JobOutcome status(String namespace, String name) {
        return outcomes.status(namespace, name);
    }

    /** See {@link LauncherJobs#cancel}; false when there was no such Job. */
    public boolean cancel(String namespace, String name) {
        return jobs.cancel(namespace, name);
    }

    /** The Jobs this launcher made in {@code namespace} (also those a CronJob of it made), oldest first. */
    public List<Job> list(String namespace) {
        return jobs.list(namespace);
    }

    /** Creates the CronJob, or updates the one of the same name. */
    public CronJob applyCronJob(CronJob cron) {
        return new CronJobs(client).apply(cron);
    }

    /** {@code Complete} or {@code Failed} once the Job has finished. */
    public static Optional<String> terminalConditionType(Job job) {
        return JobConditions.terminal(job).map(JobCondition::getType);
    }
}
