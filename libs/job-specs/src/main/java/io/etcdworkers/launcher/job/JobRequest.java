package io.etcdworkers.launcher.job;

import java.time.Duration;
import java.util.Objects;

/**
 * Everything {@link JobFactory} needs for one restoration or compaction Job, validated on construction.
 *
 * @param kind                restore or compact
 * @param etcdName            the etcd cluster the Job is for; names the Job and labels it
 * @param namespace           where the Job runs (the etcd's namespace, where its Secret and PVC are)
 * @param image               the worker image
 * @param store               the bucket and how to reach it
 * @param resources           requests, limits, volume sizes and the JVM's share
 * @param defrag              the defragmentation policy passed to the worker
 * @param restore             restore-only flags and the target claim; required for restore, null otherwise
 * @param compact             compaction flags; required for compact, null otherwise
 * @param activeDeadline      {@code activeDeadlineSeconds}: the Job fails with DeadlineExceeded after it
 * @param backoffLimit        retries on retryable failures
 * @param ttlAfterFinished    {@code ttlSecondsAfterFinished}: how long the finished Job stays readable
 * @param owner               optional owner reference
 * @param serviceAccountName  optional; the token is mounted only when lease renewal needs it
 * @param placement           extra labels and annotations, node selector, tolerations, priority class,
 *                            image pull secrets; null = none
 * @param extract             extract flags and the output claim; required for extract, null otherwise
 * @param output              the worker's log format and metrics push; null = its defaults
 */
public record JobRequest(
        WorkerKind kind,
        String etcdName,
        String namespace,
        String image,
        StoreRef store,
        JobResources resources,
        DefragFlags defrag,
        RestoreFlags restore,
        CompactFlags compact,
        Duration activeDeadline,
        int backoffLimit,
        Duration ttlAfterFinished,
        OwnerRef owner,
        String serviceAccountName,
        PodPlacement placement,
        ExtractFlags extract,
        WorkerOutput output) {

    public static final Duration DEFAULT_ACTIVE_DEADLINE = Duration.ofHours(2);
    public static final int DEFAULT_BACKOFF_LIMIT = 2;
    public static final Duration DEFAULT_TTL_AFTER_FINISHED = Duration.ofDays(1);

    /** A restore or compaction request. */
    public JobRequest(WorkerKind kind, String etcdName, String namespace, String image, StoreRef store,
            JobResources resources, DefragFlags defrag, RestoreFlags restore, CompactFlags compact,
            Duration activeDeadline, int backoffLimit, Duration ttlAfterFinished, OwnerRef owner,
            String serviceAccountName, PodPlacement placement) {
        this(kind, etcdName, namespace, image, store, resources, defrag, restore, compact, activeDeadline,
                backoffLimit, ttlAfterFinished, owner, serviceAccountName, placement, null, null);
    }

    /** A request with extract flags (or none), the worker's output at its defaults. */
    public JobRequest(WorkerKind kind, String etcdName, String namespace, String image, StoreRef store,
            JobResources resources, DefragFlags defrag, RestoreFlags restore, CompactFlags compact,
            Duration activeDeadline, int backoffLimit, Duration ttlAfterFinished, OwnerRef owner,
            String serviceAccountName, PodPlacement placement, ExtractFlags extract) {
        this(kind, etcdName, namespace, image, store, resources, defrag, restore, compact, activeDeadline,
                backoffLimit, ttlAfterFinished, owner, serviceAccountName, placement, extract, null);
    }

    /** The same request, its worker reporting as {@code output} says. */
    public JobRequest withOutput(WorkerOutput output) {
        return new JobRequest(kind, etcdName, namespace, image, store, resources, defrag, restore, compact,
                activeDeadline, backoffLimit, ttlAfterFinished, owner, serviceAccountName, placement, extract, output);
    }

    /** A request with nothing extra on the pod ({@link PodPlacement#none()}). */
    public JobRequest(WorkerKind kind, String etcdName, String namespace, String image, StoreRef store,
            JobResources resources, DefragFlags defrag, RestoreFlags restore, CompactFlags compact,
            Duration activeDeadline, int backoffLimit, Duration ttlAfterFinished, OwnerRef owner,
            String serviceAccountName) {
        this(kind, etcdName, namespace, image, store, resources, defrag, restore, compact, activeDeadline,
                backoffLimit, ttlAfterFinished, owner, serviceAccountName, null);
    }

    public JobRequest {
        Objects.requireNonNull(kind, "kind");
        etcdName = RequestChecks.dnsSubdomain(RequestChecks.required(etcdName, "etcd name"), "etcd name");
        namespace = RequestChecks.dnsLabel(RequestChecks.required(namespace, "namespace"), "namespace");
        image = RequestChecks.required(image, "image");
        Objects.requireNonNull(store, "store");
        resources = resources == null ? JobResources.defaults() : resources;
        defrag = defrag == null ? DefragFlags.workerDefaults() : defrag;
        if (kind == WorkerKind.EXTRACT) {
            if (extract == null || restore != null || compact != null) {
                throw new IllegalArgumentException("an extract needs its output claim and prefix, and no restore or "
                        + "compaction flags");
            }
        } else if (extract != null) {
            throw new IllegalArgumentException("extract flags are only for an extract");
        } else if (kind == WorkerKind.VERIFY || kind == WorkerKind.DRILL || kind == WorkerKind.SIZING) {
            if (restore != null || compact != null) {
                throw new IllegalArgumentException("a verification takes no restore or compaction flags");
            }
        } else if (kind == WorkerKind.RESTORE) {
            if (restore == null) {
                throw new IllegalArgumentException("a restore needs the target claim and data dir");
            }
            if (compact != null) {
                throw new IllegalArgumentException("compaction flags are not for a restore");
            }
        } else {
            if (restore != null) {
                throw new IllegalArgumentException("restore flags are not for a compaction");
            }
            compact = compact == null ? CompactFlags.none() : compact;
        }
        activeDeadline = RequestChecks.positive(activeDeadline == null ? DEFAULT_ACTIVE_DEADLINE : activeDeadline,
                "active deadline");
        if (backoffLimit < 0 || backoffLimit > 20) {
            throw new IllegalArgumentException("backoff limit must be 0..20: " + backoffLimit);
        }
        ttlAfterFinished = RequestChecks.positive(
                ttlAfterFinished == null ? DEFAULT_TTL_AFTER_FINISHED : ttlAfterFinished, "ttl after finished");
        serviceAccountName = RequestChecks.blankToNull(serviceAccountName);
        if (serviceAccountName != null) {
            RequestChecks.dnsSubdomain(serviceAccountName, "service account");
        }
        placement = placement == null ? PodPlacement.none() : placement;
        output = output == null ? WorkerOutput.DEFAULTS : output;
        if (kind == WorkerKind.COMPACT && compact.enableSnapshotLeaseRenewal() && serviceAccountName == null) {
            throw new IllegalArgumentException("--enable-snapshot-lease-renewal needs --service-account: without it the pod"
                    + " runs as the namespace's default ServiceAccount, which would then need patch rights on the Lease;"
                    + " give an account of its own the Role that `job-launcher lease-role` renders");
        }
        if (owner != null && "Etcd".equals(owner.kind()) && !owner.name().equals(etcdName)) {
            throw new IllegalArgumentException("the owning Etcd must be the etcd the Job is for: " + owner.name());
        }
    }

    /** Whether the pod needs the API (lease renewal), and so a service account token. */
    public boolean needsApiAccess() {
        return compact != null && compact.enableSnapshotLeaseRenewal();
    }
}
