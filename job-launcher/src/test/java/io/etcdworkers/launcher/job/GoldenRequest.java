package io.etcdworkers.launcher.job;

import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A golden case's request as its {@code in-request.yaml} writes it: the kind, and the flags of that
 * kind under {@code restore}, {@code compact} or {@code extract}. Flags of another kind are a mistake
 * in the case, refused here, since a {@link JobRequest} cannot hold them.
 */
record GoldenRequest(
        WorkerKind kind,
        String etcdName,
        String namespace,
        String image,
        StoreRef store,
        JobResources resources,
        DefragFlags defrag,
        RestoreFlags restore,
        CompactFlags compact,
        ExtractFlags extract,
        CopyFlags copy,
        Duration activeDeadline,
        int backoffLimit,
        Duration ttlAfterFinished,
        OwnerRef owner,
        String serviceAccountName,
        PodPlacement placement,
        WorkerOutput output) {

    JobRequest toRequest() {
        return common().work(work()).build();
    }

    /** Everything but the work, which a cluster restore sets per member. */
    JobRequest.Builder common() {
        return JobRequest.builder(etcdName, namespace, image, store, null)
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

    private JobWork work() {
        JobWork work = switch (kind) {
            case RESTORE -> restore;
            case COMPACT -> compact == null ? CompactFlags.none() : compact;
            case EXTRACT -> extract;
            case COPY -> copy;
            case VERIFY, DRILL, SIZING -> JobWork.check(kind);
        };
        if (work == null || Stream.of(restore, compact, extract, copy).anyMatch(f -> f != null && f != work)) {
            throw new IllegalArgumentException("a " + kind + " case takes the flags of its kind only");
        }
        return work;
    }

    /** A cluster restore: the common request, the restore flags every member shares, and each member's claim. */
    record Members(GoldenRequest job, GoldenRestoreFlags restore, Map<String, String> memberClaims) {
        ClusterRestoreRequest toRequest() {
            return ClusterRestoreRequest.of(job.common(), restore.toBuilder(), restore.initialCluster(), memberClaims);
        }
    }

    /** The restore flags of a cluster restore: no claim, name or peer URL (each member has its own). */
    record GoldenRestoreFlags(
            String dataDir,
            String initialCluster,
            String initialClusterToken,
            boolean skipHashCheck,
            boolean force,
            Long embeddedEtcdQuotaBytes,
            Integer maxFetchers,
            Long toRevision,
            String toTime,
            boolean toLastGood,
            Long bumpRevision,
            boolean markCompacted) {
        RestoreFlags.Builder toBuilder() {
            return RestoreFlags.builder(null)
                    .dataDir(dataDir)
                    .initialClusterToken(initialClusterToken)
                    .skipHashCheck(skipHashCheck)
                    .force(force)
                    .embeddedEtcdQuotaBytes(embeddedEtcdQuotaBytes)
                    .maxFetchers(maxFetchers)
                    .toRevision(toRevision)
                    .toTime(toTime)
                    .toLastGood(toLastGood)
                    .bumpRevision(bumpRevision)
                    .markCompacted(markCompacted);
        }
    }

    /** A scheduled run: the request every run uses and the schedule around it. */
    record Cron(
            GoldenRequest job,
            String schedule,
            String timeZone,
            Duration startingDeadline,
            int successfulJobsHistoryLimit,
            int failedJobsHistoryLimit) {
        CronJobRequest toRequest() {
            return new CronJobRequest(
                    job.toRequest(),
                    schedule,
                    timeZone,
                    startingDeadline,
                    successfulJobsHistoryLimit,
                    failedJobsHistoryLimit);
        }
    }
}
