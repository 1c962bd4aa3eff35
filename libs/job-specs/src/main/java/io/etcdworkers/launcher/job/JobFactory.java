package io.etcdworkers.launcher.job;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerEnv;
import io.etcdworkers.contract.WorkerJvm;
import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.CapabilitiesBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpecBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicy;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyBuilder;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds the {@code batch/v1} Job for a {@link JobRequest}: a pure function of the request and the clock.
 *
 * <p>Safe by default: requests and limits, a size-limited scratch emptyDir, {@code podFailurePolicy}
 * that ignores disruptions and fails at once on the workers' non-retryable exit codes, non-root with
 * a read-only root filesystem and no capabilities, no service account token unless lease renewal
 * needs one, and credentials only from the Secret mounted where etcd-druid mounts it.
 */
public final class JobFactory {
    /** The worker container's name; {@code podFailurePolicy} refers to it. */
    public static final String CONTAINER = "worker";
    /** The non-root user of the worker image (distroless {@code nonroot}, as etcd-druid's images). */
    public static final long RUN_AS_USER = 65532L;
    /** Time the worker has on SIGTERM to stop etcd and remove what it left half-written. */
    static final long TERMINATION_GRACE_SECONDS = 60L;

    private final Clock clock;

    public JobFactory(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The Job for one run; its name carries the clock's current time (see {@link JobNames}). */
    public Job build(JobRequest request) {
        return build(request, JobNames.jobName(request.etcdName(), request.kind(), clock.instant()));
    }

    /**
     * The Job for one run under a name the caller chose instead of the timestamped one: for a manifest
     * that must render the same every time (a committed example, GitOps). The name must be a DNS label,
     * since it is also the {@code instance} label value of the Job and its pods.
     */
    public Job build(JobRequest request, String name) {
        return build(request, name, JobNames.labels(request.etcdName(), request.kind(), name));
    }

    /**
     * One Job per member, each named {@code <etcd>-restore-<member>-<time>} (one time for all of them)
     * and labelled {@link JobNames#LABEL_MEMBER} with its member, on the Job and its pod.
     */
    public List<Job> build(ClusterRestoreRequest request) {
        Instant now = clock.instant();
        List<Job> jobs = new ArrayList<>();
        for (JobRequest member : request.members()) {
            String name = JobNames.jobName(member.etcdName(), member.kind(), ClusterRestoreRequest.member(member), now);
            jobs.add(build(
                    member,
                    name,
                    JobNames.memberLabels(member.etcdName(), name, ClusterRestoreRequest.member(member))));
        }
        return List.copyOf(jobs);
    }

    private Job build(JobRequest request, String name, Map<String, String> launcherLabels) {
        RequestChecks.dnsLabel(name, "Job name");
        Map<String, String> labels = request.placement().objectLabels(launcherLabels);
        return new JobBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(request.namespace())
                .withLabels(labels)
                .withAnnotations(request.placement().metadataAnnotations())
                .withOwnerReferences(ownerReferences(request))
                .endMetadata()
                .withSpec(jobSpec(request, labels))
                .build();
    }

    /** The Job spec; {@link CronJobFactory} reuses it as its job template. */
    JobSpec jobSpec(JobRequest request, Map<String, String> labels) {
        return new JobSpecBuilder()
                .withBackoffLimit(request.backoffLimit())
                .withActiveDeadlineSeconds(request.activeDeadline().toSeconds())
                .withTtlSecondsAfterFinished(
                        Math.toIntExact(request.ttlAfterFinished().toSeconds()))
                .withCompletions(1)
                .withParallelism(1)
                .withPodFailurePolicy(podFailurePolicy())
                // never two workers on one target: a replacement starts only once the old pod is gone
                .withPodReplacementPolicy("Failed")
                .withTemplate(podTemplate(request, labels))
                .build();
    }

    /**
     * The worker container's exit code when the kernel's OOM killer ended it at its memory limit
     * (SIGKILL); a disruption's kill is ignored by the rule before.
     */
    static final int OOM_KILLED_EXIT = 137;

    /**
     * Ignore disruptions; fail the Job at once on the workers' non-retryable codes and on an OOM
     * kill (the next pod has the same limit). Every other failure is retried up to the backoff limit.
     */
    static PodFailurePolicy podFailurePolicy() {
        List<Integer> failJob = new ArrayList<>(ErrorCode.nonRetryableExitCodes());
        failJob.add(OOM_KILLED_EXIT); // above every worker code: the list stays ascending
        return new PodFailurePolicyBuilder()
                .addNewRule()
                .withAction("Ignore")
                .addNewOnPodCondition()
                .withType("DisruptionTarget")
                .withStatus("True")
                .endOnPodCondition()
                .endRule()
                .addNewRule()
                .withAction("FailJob")
                .withNewOnExitCodes()
                .withContainerName(CONTAINER)
                .withOperator("In")
                .withValues(failJob)
                .endOnExitCodes()
                .endRule()
                .build();
    }

    static PodTemplateSpec podTemplate(JobRequest request, Map<String, String> labels) {
        return new PodTemplateSpecBuilder()
                .withNewMetadata()
                .withLabels(request.placement().podLabels(labels))
                .withAnnotations(request.placement().metadataAnnotations())
                .endMetadata()
                .withSpec(podSpec(request))
                .build();
    }

    static PodSpec podSpec(JobRequest request) {
        return new PodSpecBuilder()
                .withRestartPolicy("Never")
                .withServiceAccountName(request.serviceAccountName())
                .withPriorityClassName(request.placement().priorityClassName())
                .withNodeSelector(request.placement().podNodeSelector())
                .withTolerations(request.placement().podTolerations())
                .withImagePullSecrets(request.placement().podImagePullSecrets())
                .withAffinity(request.placement().affinity())
                .withAutomountServiceAccountToken(request.needsApiAccess())
                .withEnableServiceLinks(false)
                .withTerminationGracePeriodSeconds(TERMINATION_GRACE_SECONDS)
                .withNewSecurityContext()
                .withRunAsNonRoot(true)
                .withRunAsUser(RUN_AS_USER)
                .withRunAsGroup(RUN_AS_USER)
                .withFsGroup(RUN_AS_USER)
                // large etcd volumes: chown only when the root's group is wrong
                .withFsGroupChangePolicy("OnRootMismatch")
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .endSecurityContext()
                .withContainers(container(request))
                .withVolumes(PodVolumes.volumes(request))
                .build();
    }

    static Container container(JobRequest request) {
        return new ContainerBuilder()
                .withName(CONTAINER)
                .withImage(request.image())
                .withImagePullPolicy("IfNotPresent")
                .withCommand(request.kind().command())
                .withArgs(WorkerArgs.args(request))
                .withEnv(env(request))
                .withResources(resources(request.resources()))
                .withVolumeMounts(PodVolumes.mounts(request))
                .withTerminationMessagePath(WorkerArgs.RESULT_FILE)
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .withNewSecurityContext()
                .withAllowPrivilegeEscalation(false)
                .withPrivileged(false)
                .withReadOnlyRootFilesystem(true)
                .withRunAsNonRoot(true)
                .withCapabilities(dropAll())
                .endSecurityContext()
                .build();
    }

    static List<EnvVar> env(JobRequest request) {
        List<EnvVar> env = new ArrayList<>();
        env.add(new EnvVarBuilder()
                .withName("JAVA_TOOL_OPTIONS")
                .withValue(javaOptions(request.resources()))
                .build());
        env.add(fieldRef("POD_NAME", "metadata.name"));
        env.add(fieldRef("POD_NAMESPACE", "metadata.namespace"));
        env.add(new EnvVarBuilder()
                .withName(WorkerEnv.STORAGE_CONTAINER)
                .withValue(storeContainer(request.store()))
                .build());
        // paths and secretKeyRefs, never a credential: the worker reads what the Secret puts there
        env.addAll(StoreCredentials.env(request.store()));
        if (request.work() instanceof CopyFlags copy) {
            String container = copy.source().provider() == StorageProvider.Local
                    ? WorkerArgs.SOURCE_LOCAL_BUCKET_ROOT + "/" + copy.source().container()
                    : copy.source().container();
            env.addAll(StoreCredentials.sourceEnv(copy.source(), container));
        }
        if (request.output().logFormat() != null) {
            env.add(new EnvVarBuilder()
                    .withName(WorkerEnv.FLAG_TWIN_PREFIX + "LOG_FORMAT")
                    .withValue(request.output().logFormat())
                    .build());
        }
        if (request.output().pushgateway() != null) {
            env.add(new EnvVarBuilder()
                    .withName(WorkerEnv.FLAG_TWIN_PREFIX + "METRICS_PUSHGATEWAY")
                    .withValue(request.output().pushgateway())
                    .build());
        }
        return env;
    }

    /**
     * The serial collector: the worker's live heap is a few tens of MB (one revision group at a
     * time), and G1 keeps hundreds of MB committed that the etcd child could use (measured:
     * JVM 426 MB with G1, 253 MB serial, same speed: docs/benchmarks.md). The percentage is a
     * ceiling for a very large revision, not a reservation.
     */
    static String javaOptions(JobResources resources) {
        // not -XX:+ExitOnOutOfMemoryError: it exits 3 where the heap ran out, before any cleanup;
        // the worker unwinds, removes its scratch and exits 35 (OUT_OF_MEMORY) with a result
        return "-XX:+UseSerialGC -XX:MaxRAMPercentage=" + resources.heapPercent() + ".0"
                // C2 for what is hot, not warm: the fold is CPU-bound (WorkerJvm)
                + " " + String.join(" ", WorkerJvm.JIT)
                // no /tmp/hsperfdata_<user>/<pid>: the worker writes only its data, scratch and temp
                // dirs (WritesOnlyUnderItsDirsIT), and nobody runs jstat against a Job
                + " -XX:-UsePerfData"
                + " -Djava.io.tmpdir=" + PodVolumes.TMP_MOUNT_PATH;
    }

    static String storeContainer(StoreRef store) {
        return store.provider() == StorageProvider.Local
                ? WorkerArgs.LOCAL_BUCKET_ROOT + "/" + store.container()
                : store.container();
    }

    static ResourceRequirements resources(JobResources r) {
        return new ResourceRequirementsBuilder()
                .addToRequests("cpu", new Quantity(r.cpuRequest()))
                .addToRequests("memory", new Quantity(r.memoryRequest()))
                .addToLimits("cpu", new Quantity(r.cpuLimit()))
                .addToLimits("memory", new Quantity(r.memoryLimit()))
                .build();
    }

    static List<OwnerReference> ownerReferences(JobRequest request) {
        if (request.owner() == null) {
            return List.of();
        }
        OwnerRef o = request.owner();
        // blockOwnerDeletion would need update rights on the owner's finalizers: left off
        return List.of(new OwnerReferenceBuilder()
                .withApiVersion(o.apiVersion())
                .withKind(o.kind())
                .withName(o.name())
                .withUid(o.uid())
                .withController(true)
                .build());
    }

    private static Capabilities dropAll() {
        return new CapabilitiesBuilder().withDrop("ALL").build();
    }

    private static EnvVar fieldRef(String name, String path) {
        return new EnvVarBuilder()
                .withName(name)
                .withNewValueFrom()
                .withNewFieldRef()
                .withFieldPath(path)
                .endFieldRef()
                .endValueFrom()
                .build();
    }
}
