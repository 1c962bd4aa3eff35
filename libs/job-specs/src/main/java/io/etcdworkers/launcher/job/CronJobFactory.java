package io.etcdworkers.launcher.job;

import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.CronJobBuilder;
import java.util.Map;
import java.util.Objects;

/**
 * Builds the {@code batch/v1} CronJob for scheduled compaction, with the same pod template as
 * {@link JobFactory}.
 *
 * <p>{@code concurrencyPolicy: Forbid} keeps runs from overlapping; when the request sets no
 * threshold, {@link #DEFAULT_MIN_DELTA_REVISIONS} is added so a run with little to compact exits 0
 * ("skipped") after listing the bucket instead of restoring it.
 */
public final class CronJobFactory {
    /** The threshold an otherwise unthresholded scheduled compaction gets. */
    public static final long DEFAULT_MIN_DELTA_REVISIONS = 10_000L;

    private final JobFactory jobs;

    public CronJobFactory(JobFactory jobs) {
        this.jobs = Objects.requireNonNull(jobs, "jobs");
    }

    public CronJob build(CronJobRequest request) {
        JobRequest job = withThreshold(request.job());
        String name = JobNames.cronJobName(job.etcdName(), job.kind());
        Map<String, String> labels = job.placement().objectLabels(JobNames.labels(job.etcdName(), job.kind(), name));
        return new CronJobBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(job.namespace())
                .withLabels(labels)
                .withAnnotations(job.placement().metadataAnnotations())
                .withOwnerReferences(JobFactory.ownerReferences(job))
                .endMetadata()
                .withNewSpec()
                .withSchedule(request.schedule())
                .withTimeZone(request.timeZone())
                .withConcurrencyPolicy("Forbid")
                .withStartingDeadlineSeconds(request.startingDeadline().toSeconds())
                .withSuccessfulJobsHistoryLimit(request.successfulJobsHistoryLimit())
                .withFailedJobsHistoryLimit(request.failedJobsHistoryLimit())
                .withNewJobTemplate()
                .withNewMetadata()
                .withLabels(labels)
                .withAnnotations(job.placement().metadataAnnotations())
                .endMetadata()
                .withSpec(jobs.jobSpec(job, labels))
                .endJobTemplate()
                .endSpec()
                .build();
    }

    static JobRequest withThreshold(JobRequest job) {
        if (!(job.work() instanceof CompactFlags compact) || compact.hasThreshold()) {
            return job;
        }
        return job.withWork(compact.withMinDeltaRevisions(DEFAULT_MIN_DELTA_REVISIONS));
    }
}
