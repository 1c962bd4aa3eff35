package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.job.JobRequest;
import io.etcdworkers.launcher.job.JobResources;
import io.etcdworkers.launcher.job.JobWork;
import io.etcdworkers.launcher.job.OwnerRef;
import io.etcdworkers.launcher.job.PodPlacement;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The Job's pod: image, resources, deadlines, owner and service account. */
final class PodOptions {
    @Option(
            names = "--worker-log-format",
            paramLabel = "text|json",
            description = "The worker's log lines: text, or one JSON object per line. Default: the worker's (text).")
    String workerLogFormat;

    @Option(
            names = "--metrics-pushgateway",
            paramLabel = "URL",
            description = "The worker pushes its final figures to this Prometheus Pushgateway. Default: none.")
    String metricsPushgateway;

    io.etcdworkers.launcher.job.WorkerOutput output() {
        return new io.etcdworkers.launcher.job.WorkerOutput(workerLogFormat, metricsPushgateway);
    }

    @Option(
            names = "--etcd",
            description = "The etcd cluster the Job is for (names and labels the Job). Required unless "
                    + "--from-etcd gives it.")
    String etcd;

    @Option(names = "--image", required = true, description = "The worker image.")
    String image;

    @Option(
            names = "--cpu-request",
            defaultValue = JobResources.DEFAULT_CPU_REQUEST,
            description = "Default: ${DEFAULT-VALUE}.")
    String cpuRequest;

    @Option(
            names = "--cpu-limit",
            defaultValue = JobResources.DEFAULT_CPU_LIMIT,
            description = "Default: ${DEFAULT-VALUE}.")
    String cpuLimit;

    @Option(
            names = "--memory-request",
            defaultValue = JobResources.DEFAULT_MEMORY,
            description = "Default: ${DEFAULT-VALUE}.")
    String memoryRequest;

    @Option(
            names = "--memory-limit",
            defaultValue = JobResources.DEFAULT_MEMORY,
            description =
                    "A size, or (restore and "
                            + "compact) auto: a sizing Job (verify-backup --estimate-memory) reads the backup first and the Job gets "
                            + "the memory its result names, as request and limit, with its heap share. Default: ${DEFAULT-VALUE}.")
    String memoryLimit;

    @Option(
            names = "--check-memory",
            description = "Run the sizing Job first and refuse (exit 2, naming the size "
                    + "needed) when --memory-limit cannot hold this backup by docs/tuning.md's rule.")
    boolean checkMemory;

    @Option(
            names = "--scratch-size",
            defaultValue = JobResources.DEFAULT_SCRATCH,
            description = "Size limit of the scratch emptyDir. Default: ${DEFAULT-VALUE}.")
    String scratchSize;

    @Option(
            names = "--tmp-size",
            defaultValue = JobResources.DEFAULT_TMP,
            description = "Size limit of the /tmp emptyDir. Default: ${DEFAULT-VALUE}.")
    String tmpSize;

    @Option(
            names = "--heap-percent",
            defaultValue = "25",
            description = "JVM heap as a share of the memory limit; etcd needs the rest. Default: ${DEFAULT-VALUE}.")
    int heapPercent;

    @Option(
            names = "--deadline",
            converter = DurationConverter.class,
            defaultValue = "2h",
            description = "activeDeadlineSeconds. Default: ${DEFAULT-VALUE}.")
    Duration deadline;

    @Option(
            names = "--backoff-limit",
            defaultValue = "2",
            description = "Retries on retryable failures. Default: ${DEFAULT-VALUE}.")
    int backoffLimit;

    @Option(
            names = "--ttl-after-finished",
            converter = DurationConverter.class,
            defaultValue = "24h",
            description = "Default: ${DEFAULT-VALUE}.")
    Duration ttlAfterFinished;

    @Option(
            names = "--service-account",
            description = "Service account of the pod (its token is mounted only for lease renewal).")
    String serviceAccount;

    @Option(names = "--owner-uid", description = "Set an owner reference to the Etcd resource with this uid.")
    String ownerUid;

    @Option(names = "--owner-kind", defaultValue = "Etcd", description = "Default: ${DEFAULT-VALUE}.")
    String ownerKind;

    @Option(
            names = "--owner-api-version",
            defaultValue = "druid.gardener.cloud/v1alpha1",
            description = "Default: ${DEFAULT-VALUE}.")
    String ownerApiVersion;

    @Option(names = "--owner-name", description = "Default: the --etcd name.")
    String ownerName;

    @Option(
            names = "--label",
            paramLabel = "KEY=VALUE",
            split = ",",
            description =
                    "Label for the Job (CronJob) and its pods; repeatable. The launcher's own labels cannot be set.")
    Map<String, String> labels;

    @Option(
            names = "--annotation",
            paramLabel = "KEY=VALUE",
            description = "Annotation for the Job (CronJob) and its pods; repeatable.")
    Map<String, String> annotations;

    @Option(
            names = "--node-selector",
            paramLabel = "KEY=VALUE",
            split = ",",
            description = "The pod's nodeSelector; repeatable.")
    Map<String, String> nodeSelector;

    @Option(
            names = "--toleration",
            paramLabel = "KEY[=VALUE][:EFFECT][:OPERATOR]",
            split = ",",
            description =
                    "A toleration of the pod; repeatable. EFFECT NoSchedule|PreferNoSchedule|NoExecute (none: all), "
                            + "OPERATOR Equal|Exists (default: Equal with a value, Exists without). E.g. dedicated=etcd:NoSchedule.")
    List<String> tolerations;

    @Option(names = "--priority-class", paramLabel = "NAME", description = "The pod's priorityClassName.")
    String priorityClass;

    @Option(
            names = "--image-pull-secret",
            paramLabel = "NAME",
            split = ",",
            description = "A Secret for the pod's imagePullSecrets; repeatable.")
    List<String> imagePullSecrets;

    @Option(
            names = "--gardener-network-labels",
            description =
                    "Label the pods networking.gardener.cloud/to-dns, to-private-networks and to-public-networks=allowed, "
                            + "as etcd-druid's compaction Job, so Gardener's NetworkPolicies let them reach DNS and the store.")
    boolean gardenerNetworkLabels;

    @Option(
            names = "--affinity-file",
            paramLabel = "FILE",
            description = "YAML (or JSON) of the pod's affinity: nodeAffinity, podAffinity, podAntiAffinity.")
    Path affinityFile;

    PodPlacement placement() {
        return new PodPlacement(
                labels,
                annotations,
                nodeSelector,
                tolerations,
                priorityClass,
                imagePullSecrets,
                gardenerNetworkLabels,
                affinity());
    }

    private Affinity affinity() {
        if (affinityFile == null) {
            return null;
        }
        try {
            Affinity a = new KubernetesSerialization().unmarshal(Files.readString(affinityFile), Affinity.class);
            if (a == null) {
                throw new IllegalArgumentException("--affinity-file " + affinityFile + " is empty");
            }
            return a;
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot read --affinity-file " + affinityFile + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            if (e instanceof IllegalArgumentException iae && iae.getMessage().startsWith("--affinity-file")) {
                throw iae;
            }
            throw new IllegalArgumentException(
                    "--affinity-file " + affinityFile + " is not an affinity: " + e.getMessage(), e);
        }
    }

    JobResources resources() {
        if (MemorySizing.AUTO.equals(memoryLimit)) {
            throw new IllegalArgumentException(
                    "--memory-limit=auto sizes one restore or compaction run from the backup; "
                            + "give a size here (verify-backup --estimate-memory prints one)");
        }
        return new JobResources(cpuRequest, cpuLimit, memoryRequest, memoryLimit, scratchSize, tmpSize, heapPercent);
    }

    /** A request for {@code work} with this pod, the store and the engine's flags. */
    JobRequest.Builder request(String namespace, StoreOptions store, DefragOptions defrag, JobWork work) {
        return JobRequest.builder(etcd, namespace, image, store.toStoreRef(), work)
                .resources(resources())
                .defrag(defrag.toFlags())
                .activeDeadline(deadline)
                .backoffLimit(backoffLimit)
                .ttlAfterFinished(ttlAfterFinished)
                .owner(owner())
                .serviceAccountName(serviceAccount)
                .placement(placement())
                .output(output());
    }

    OwnerRef owner() {
        if (ownerUid == null || ownerUid.isBlank()) {
            return null;
        }
        return new OwnerRef(ownerApiVersion, ownerKind, ownerName == null ? etcd : ownerName, ownerUid);
    }
}
