package io.etcdworkers.launcher.kube;

import io.etcdworkers.launcher.job.JobFactory;
import io.etcdworkers.launcher.job.JobNames;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates, watches, reports, cancels and lists the launcher's Jobs through a {@link KubernetesClient}.
 *
 * <p>One target (namespace, etcd, kind) has at most one active Job: {@link #create} refuses a
 * second. The check and the create are two calls, so two launchers racing in the same instant can
 * both pass it; the worker's own target lock (exit code 34) is the last line for that.
 */
public class JobLauncher {
    /** The label the Job controller puts on its pods (1.27+); {@code job-name} before that. */
    static final String POD_JOB_LABEL = "batch.kubernetes.io/job-name";
    static final String LEGACY_POD_JOB_LABEL = "job-name";
    private static final Logger LOG = LoggerFactory.getLogger(JobLauncher.class);

    /** How long one watch of the Job lasts before the launcher looks at its pods and Events again. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(10);

    private final KubernetesClient client;
    private final JobWatch watch;
    private JobMetrics metrics;

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
    }

    /** Counts the outcomes {@link #recordOutcome} records in {@code metrics}; returns this launcher. */
    public JobLauncher withMetrics(JobMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        return this;
    }

    /** Creates the Job unless one for the same target is still active. */
    public Job create(Job job) {
        String ns = job.getMetadata().getNamespace();
        Map<String, String> labels = job.getMetadata().getLabels();
        String etcd = labels.get(JobNames.LABEL_ETCD);
        String component = labels.get(JobNames.LABEL_COMPONENT);
        List<Job> active = call(() -> client.batch().v1().jobs().inNamespace(ns)
                .withLabel(JobNames.LABEL_MANAGED_BY, JobNames.MANAGED_BY_VALUE)
                .withLabel(JobNames.LABEL_COMPONENT, component)
                .withLabel(JobNames.LABEL_ETCD, etcd)
                .list().getItems(), "list Jobs in " + ns)
                .stream().filter(j -> !finished(j)).filter(j -> sameMember(job, j)).toList();
        if (!active.isEmpty()) {
            throw new LauncherException(LauncherError.TARGET_BUSY, "refusing to start " + component + " for etcd "
                    + etcd + " in " + ns + ": Job " + active.get(0).getMetadata().getName()
                    + " for the same target is still active (cancel it, or wait for it to finish)");
        }
        try {
            Job created = client.batch().v1().jobs().inNamespace(ns).resource(job).create();
            LOG.info("created Job job={} namespace={} etcd={} kind={}", created.getMetadata().getName(), ns, etcd, component);
            return created;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                throw new LauncherException(LauncherError.TARGET_BUSY,
                        "Job " + job.getMetadata().getName() + " already exists in " + ns, e);
            }
            throw api("create Job " + job.getMetadata().getName(), e);
        }
    }

    /**
     * The members' restore Jobs of one cluster run side by side, one per member; any other Job for
     * the etcd (a whole restore, or one of the same member) is the same target.
     */
    private static boolean sameMember(Job created, Job active) {
        String member = created.getMetadata().getLabels().get(JobNames.LABEL_MEMBER);
        String other = active.getMetadata().getLabels() == null ? null
                : active.getMetadata().getLabels().get(JobNames.LABEL_MEMBER);
        return member == null || other == null || member.equals(other);
    }

    /**
     * Records how a Job the launcher watched to its end came out, as a Kubernetes Event on the Job
     * ({@code Normal WorkerSucceeded} or {@code Warning WorkerFailed}, the worker's summary as the
     * message), where the alerting on Events a cluster already has sees it. A refused Event (RBAC)
     * is logged and changes nothing else.
     */
    public void recordOutcome(Job job, JobOutcome outcome, java.time.Instant now) {
        if (!outcome.finished()) {
            return;
        }
        if (metrics != null) {
            Map<String, String> labels = job.getMetadata().getLabels();
            String created = job.getMetadata().getCreationTimestamp();
            Duration took = created == null ? Duration.ZERO
                    : Duration.between(java.time.OffsetDateTime.parse(created).toInstant(), now);
            metrics.record(labels.get(JobNames.LABEL_COMPONENT), labels.get(JobNames.LABEL_ETCD), outcome, took);
        }
        boolean ok = outcome.state() == JobOutcome.State.SUCCEEDED && outcome.exitCode() == 0;
        String summary = outcome.result() != null ? outcome.result().summary().toString()
                : "exitCode=" + outcome.exitCode() + (outcome.reason() == null ? "" : " reason=" + outcome.reason());
        String time = now.toString();
        io.fabric8.kubernetes.api.model.Event event = new io.fabric8.kubernetes.api.model.EventBuilder()
                .withNewMetadata().withGenerateName(job.getMetadata().getName() + "-")
                    .withNamespace(job.getMetadata().getNamespace()).withLabels(job.getMetadata().getLabels())
                .endMetadata()
                .withNewInvolvedObject().withApiVersion("batch/v1").withKind("Job")
                    .withName(job.getMetadata().getName()).withNamespace(job.getMetadata().getNamespace())
                    .withUid(job.getMetadata().getUid()).endInvolvedObject()
                .withType(ok ? "Normal" : "Warning")
                .withReason(ok ? "WorkerSucceeded" : "WorkerFailed")
                .withMessage(summary.length() > 1024 ? summary.substring(0, 1021) + "..." : summary)
                .withNewSource().withComponent("etcd-workers-launcher").endSource()
                .withFirstTimestamp(time).withLastTimestamp(time).withCount(1)
                .build();
        try {
            client.v1().events().inNamespace(job.getMetadata().getNamespace()).resource(event).create();
        } catch (KubernetesClientException e) {
            LOG.warn("could not record the outcome of Job {} as an Event: {}", job.getMetadata().getName(),
                    e.getMessage());
        }
    }

    /**
     * Waits until the Job is complete or failed, or {@code timeout} passes (the Job keeps running
     * then), calling {@code progress} on every change, and returns the outcome.
     */
    public JobOutcome watch(String namespace, String name, Duration timeout, Consumer<Job> progress) {
        return watch(namespace, name, WatchLimits.of(timeout), progress, line -> { });
    }

    /**
     * Waits until the Job is complete or failed, the timeout passes, or a worker pod cannot start
     * beyond the limits (the Job keeps running in both cases: {@link JobOutcome.State#WATCH_TIMED_OUT},
     * {@link JobOutcome.State#POD_STUCK}). Calls {@code progress} on every Job change and
     * {@code diagnostics} with each new line about the pods: a waiting reason, an unschedulable pod,
     * the latest Events of the Job and its pods.
     */
    public JobOutcome watch(String namespace, String name, WatchLimits limits, Consumer<Job> progress,
            Consumer<String> diagnostics) {
        JobWatch.Result r = watch.run(namespace, name, limits, progress, diagnostics);
        if (r.deleted()) {
            throw new LauncherException(LauncherError.NOT_FOUND, "Job " + name + " in " + namespace + " was deleted");
        }
        if (r.finished() != null) {
            return outcome(r.finished());
        }
        if (r.stuck() != null) {
            return new JobOutcome(namespace, name, JobOutcome.State.POD_STUCK, r.stuck().reason(),
                    r.stuck().message() + "; the Job was left running (cancel it, fix the cause, start again)", null, null);
        }
        JobOutcome now = status(namespace, name);
        return now.finished() ? now : new JobOutcome(namespace, name, JobOutcome.State.WATCH_TIMED_OUT,
                null, "still running after " + limits.timeout() + "; the Job was left running", null, null);
    }

    /** The Job's outcome now, without waiting. */
    public JobOutcome status(String namespace, String name) {
        Job job = call(() -> client.batch().v1().jobs().inNamespace(namespace).withName(name).get(), "get Job " + name);
        if (job == null) {
            throw new LauncherException(LauncherError.NOT_FOUND, "no Job " + name + " in " + namespace);
        }
        return outcome(job);
    }

    /**
     * Deletes the Job with foreground propagation: the Job stays, marked for deletion and counted as
     * active by {@link #create}, until its pods are gone, so no new run starts beside a dying one.
     * Returns false when there was no such Job.
     */
    public boolean cancel(String namespace, String name) {
        List<?> deleted = call(() -> client.batch().v1().jobs().inNamespace(namespace).withName(name)
                .withPropagationPolicy(DeletionPropagation.FOREGROUND).delete(), "delete Job " + name);
        boolean any = deleted != null && !deleted.isEmpty();
        if (any) {
            LOG.info("cancelled Job job={} namespace={}", name, namespace);
        }
        return any;
    }

    /** The Jobs this launcher made in {@code namespace} (also those a CronJob of it made), oldest first. */
    public List<Job> list(String namespace) {
        return call(() -> client.batch().v1().jobs().inNamespace(namespace)
                .withLabel(JobNames.LABEL_MANAGED_BY, JobNames.MANAGED_BY_VALUE).list().getItems(), "list Jobs")
                .stream()
                .sorted(Comparator.comparing((Job j) -> Objects.toString(j.getMetadata().getCreationTimestamp(), ""))
                        .thenComparing(j -> j.getMetadata().getName()))
                .toList();
    }

    /** Creates the CronJob, or updates the one of the same name. */
    public CronJob applyCronJob(CronJob cron) {
        String ns = cron.getMetadata().getNamespace();
        return call(() -> client.batch().v1().cronjobs().inNamespace(ns).resource(cron)
                .createOr(NonDeletingOperation::update), "apply CronJob " + cron.getMetadata().getName());
    }

    /** {@code Complete} or {@code Failed} once the Job has finished. */
    public static Optional<String> terminalConditionType(Job job) {
        return terminalCondition(job).map(JobCondition::getType);
    }

    /** Reads the state from the Job's conditions and the worker's result from its latest pod. */
    JobOutcome outcome(Job job) {
        String ns = job.getMetadata().getNamespace();
        String name = job.getMetadata().getName();
        Optional<JobCondition> terminal = terminalCondition(job);
        if (terminal.isEmpty()) {
            return new JobOutcome(ns, name, JobOutcome.State.RUNNING, null, null, null, null);
        }
        JobCondition c = terminal.get();
        JobOutcome.State state = "Complete".equals(c.getType()) ? JobOutcome.State.SUCCEEDED : JobOutcome.State.FAILED;
        Optional<ContainerStateTerminated> worker = latestWorkerTermination(ns, name);
        WorkerResult result = worker.map(t -> WorkerResult.parse(t.getMessage())).orElse(null);
        Integer exit = worker.map(ContainerStateTerminated::getExitCode).orElse(null);
        // an OOM kill leaves no termination message: only the kubelet's reason says what happened
        String containerReason = worker.map(ContainerStateTerminated::getReason).orElse(null);
        return new JobOutcome(ns, name, state, c.getReason(), c.getMessage(), result, exit, containerReason,
                memoryLimit(job));
    }

    /** The worker container's memory limit in the Job's template, or null. */
    static String memoryLimit(Job job) {
        return Optional.ofNullable(job.getSpec()).map(JobSpec::getTemplate).map(PodTemplateSpec::getSpec)
                .map(PodSpec::getContainers).orElse(List.of()).stream()
                .filter(c -> JobFactory.CONTAINER.equals(c.getName()))
                .map(Container::getResources).filter(Objects::nonNull)
                .map(ResourceRequirements::getLimits).filter(Objects::nonNull)
                .map(limits -> limits.get("memory")).filter(Objects::nonNull)
                .map(Quantity::toString).findFirst().orElse(null);
    }

    static boolean finished(Job job) {
        return terminalCondition(job).isPresent();
    }

    static Optional<JobCondition> terminalCondition(Job job) {
        if (job.getStatus() == null || job.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return job.getStatus().getConditions().stream()
                .filter(c -> "True".equals(c.getStatus()))
                .filter(c -> "Complete".equals(c.getType()) || "Failed".equals(c.getType()))
                .findFirst();
    }

    /** The Job's pods, by the label the Job controller sets (the legacy one before Kubernetes 1.27). */
    static List<Pod> pods(KubernetesClient client, String ns, String jobName) {
        List<Pod> pods = call(() -> client.pods().inNamespace(ns).withLabel(POD_JOB_LABEL, jobName).list().getItems(),
                "list pods of Job " + jobName);
        if (pods.isEmpty()) {
            pods = call(() -> client.pods().inNamespace(ns).withLabel(LEGACY_POD_JOB_LABEL, jobName).list().getItems(),
                    "list pods of Job " + jobName);
        }
        return pods;
    }

    private Optional<ContainerStateTerminated> latestWorkerTermination(String ns, String jobName) {
        return pods(client, ns, jobName).stream()
                .filter(p -> p.getStatus() != null && p.getStatus().getContainerStatuses() != null)
                .flatMap(p -> p.getStatus().getContainerStatuses().stream())
                .filter(s -> JobFactory.CONTAINER.equals(s.getName()))
                .map(ContainerStatus::getState)
                .filter(s -> s != null && s.getTerminated() != null)
                .map(s -> s.getTerminated())
                // RFC 3339 UTC timestamps sort as text
                .max(Comparator.comparing((ContainerStateTerminated t) -> Objects.toString(t.getFinishedAt(), "")));
    }

    static <T> T call(java.util.function.Supplier<T> call, String what) {
        try {
            return call.get();
        } catch (KubernetesClientException e) {
            throw api(what, e);
        }
    }

    static LauncherException api(String what, KubernetesClientException e) {
        if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
            return new LauncherException(LauncherError.NOT_FOUND, "could not " + what + ": not found", e);
        }
        return new LauncherException(LauncherError.KUBERNETES_API, "could not " + what + ": " + e.getMessage()
                + rootCause(e), e);
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
