package io.etcdworkers.launcher.job;

import java.time.Duration;
import java.util.Objects;

/**
 * Everything {@link JobFactory} needs for one Job, validated on construction; made with
 * {@link #builder}.
 *
 * @param etcdName            the etcd cluster the Job is for; names the Job and labels it
 * @param namespace           where the Job runs (the etcd's namespace, where its Secret and PVC are)
 * @param image               the worker image
 * @param store               the bucket and how to reach it
 * @param work                what the Job does, with the flags of that kind of work only
 * @param resources           requests, limits, volume sizes and the JVM's share
 * @param defrag              the engine and defragmentation policy passed to the worker
 * @param activeDeadline      {@code activeDeadlineSeconds}: the Job fails with DeadlineExceeded after it
 * @param backoffLimit        retries on retryable failures
 * @param ttlAfterFinished    {@code ttlSecondsAfterFinished}: how long the finished Job stays readable
 * @param owner               optional owner reference
 * @param serviceAccountName  optional; the token is mounted only when lease renewal needs it
 * @param placement           extra labels and annotations, node selector, tolerations, priority class,
 *                            image pull secrets
 * @param output              the worker's log format and metrics push
 */
public record JobRequest(
        String etcdName,
        String namespace,
        String image,
        StoreRef store,
        JobWork work,
        JobResources resources,
        DefragFlags defrag,
        Duration activeDeadline,
        int backoffLimit,
        Duration ttlAfterFinished,
        OwnerRef owner,
        String serviceAccountName,
        PodPlacement placement,
        WorkerOutput output) {

    public static final Duration DEFAULT_ACTIVE_DEADLINE = Duration.ofHours(2);
    public static final int DEFAULT_BACKOFF_LIMIT = 2;
    public static final Duration DEFAULT_TTL_AFTER_FINISHED = Duration.ofDays(1);

    public JobRequest {
        etcdName = RequestChecks.dnsSubdomain(RequestChecks.required(etcdName, "etcd name"), "etcd name");
        namespace = RequestChecks.dnsLabel(RequestChecks.required(namespace, "namespace"), "namespace");
        image = RequestChecks.required(image, "image");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(work, "work");
        resources = resources == null ? JobResources.defaults() : resources;
        defrag = defrag == null ? DefragFlags.workerDefaults() : defrag;
        activeDeadline = RequestChecks.positive(
                activeDeadline == null ? DEFAULT_ACTIVE_DEADLINE : activeDeadline, "active deadline");
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
        if (work instanceof CompactFlags c && c.enableSnapshotLeaseRenewal() && serviceAccountName == null) {
            throw new IllegalArgumentException(
                    "--enable-snapshot-lease-renewal needs --service-account: without it the pod"
                            + " runs as the namespace's default ServiceAccount, which would then need patch rights on the Lease;"
                            + " give an account of its own the Role that `job-launcher lease-role` renders");
        }
        if (owner != null && "Etcd".equals(owner.kind()) && !owner.name().equals(etcdName)) {
            throw new IllegalArgumentException("the owning Etcd must be the etcd the Job is for: " + owner.name());
        }
    }

    /** A request for {@code work} on the etcd {@code etcdName}; everything else at its default until set. */
    public static Builder builder(String etcdName, String namespace, String image, StoreRef store, JobWork work) {
        return new Builder(etcdName, namespace, image, store, work);
    }

    /** The kind of Job: its work's. */
    public WorkerKind kind() {
        return work.kind();
    }

    /** Whether the pod needs the API (lease renewal), and so a service account token. */
    public boolean needsApiAccess() {
        return work instanceof CompactFlags c && c.enableSnapshotLeaseRenewal();
    }

    /** A builder holding this request's values, to make a changed copy. */
    public Builder toBuilder() {
        return new Builder(etcdName, namespace, image, store, work)
                .resources(resources)
                .defrag(defrag)
                .activeDeadline(activeDeadline)
                .backoffLimit(backoffLimit)
                .ttlAfterFinished(ttlAfterFinished)
                .owner(owner)
                .serviceAccountName(serviceAccountName)
                .placement(placement)
                .output(output);
    }

    /** The same request with other work (the same etcd, store, pod and limits). */
    public JobRequest withWork(JobWork other) {
        return toBuilder().work(other).build();
    }

    /** The same request, its worker reporting as {@code output} says. */
    public JobRequest withOutput(WorkerOutput other) {
        return toBuilder().output(other).build();
    }

    /** Builds a {@link JobRequest}; a value left unset is the request's default (null: the default). */
    public static final class Builder {
        private String etcdName;
        private String namespace;
        private String image;
        private StoreRef store;
        private JobWork work;
        private JobResources resources;
        private DefragFlags defrag;
        private Duration activeDeadline;
        private int backoffLimit = DEFAULT_BACKOFF_LIMIT;
        private Duration ttlAfterFinished;
        private OwnerRef owner;
        private String serviceAccountName;
        private PodPlacement placement;
        private WorkerOutput output;

        private Builder(String etcdName, String namespace, String image, StoreRef store, JobWork work) {
            this.etcdName = etcdName;
            this.namespace = namespace;
            this.image = image;
            this.store = store;
            this.work = work;
        }

        public Builder work(JobWork value) {
            this.work = value;
            return this;
        }

        public Builder resources(JobResources value) {
            this.resources = value;
            return this;
        }

        public Builder defrag(DefragFlags value) {
            this.defrag = value;
            return this;
        }

        public Builder activeDeadline(Duration value) {
            this.activeDeadline = value;
            return this;
        }

        public Builder backoffLimit(int value) {
            this.backoffLimit = value;
            return this;
        }

        public Builder ttlAfterFinished(Duration value) {
            this.ttlAfterFinished = value;
            return this;
        }

        public Builder owner(OwnerRef value) {
            this.owner = value;
            return this;
        }

        public Builder serviceAccountName(String value) {
            this.serviceAccountName = value;
            return this;
        }

        public Builder placement(PodPlacement value) {
            this.placement = value;
            return this;
        }

        public Builder output(WorkerOutput value) {
            this.output = value;
            return this;
        }

        /** The request; throws IllegalArgumentException naming what is wrong. */
        public JobRequest build() {
            return new JobRequest(
                    etcdName,
                    namespace,
                    image,
                    store,
                    work,
                    resources,
                    defrag,
                    activeDeadline,
                    backoffLimit,
                    ttlAfterFinished,
                    owner,
                    serviceAccountName,
                    placement,
                    output);
        }
    }
}
