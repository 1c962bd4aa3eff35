package io.etcdworkers.launcher.job;

import java.time.Duration;
import java.util.Objects;

/**
 * A scheduled compaction: the Job request every run uses, and the schedule around it.
 *
 * @param job                       a compaction request; the CronJob's runs use its pod template
 * @param schedule                  cron schedule, five fields (e.g. {@code 17 *&#47;6 * * *})
 * @param timeZone                  IANA zone for the schedule, or null for the controller's
 * @param startingDeadline          a run missed by more than this is skipped
 * @param successfulJobsHistoryLimit finished Jobs kept (until their TTL)
 * @param failedJobsHistoryLimit     failed Jobs kept (until their TTL)
 */
public record CronJobRequest(
        JobRequest job,
        String schedule,
        String timeZone,
        Duration startingDeadline,
        int successfulJobsHistoryLimit,
        int failedJobsHistoryLimit) {

    public static final Duration DEFAULT_STARTING_DEADLINE = Duration.ofMinutes(30);
    public static final int DEFAULT_SUCCESSFUL_HISTORY = 3;
    public static final int DEFAULT_FAILED_HISTORY = 3;

    public CronJobRequest {
        Objects.requireNonNull(job, "job");
        if (job.kind() != WorkerKind.COMPACT && job.kind() != WorkerKind.VERIFY && job.kind() != WorkerKind.DRILL) {
            throw new IllegalArgumentException("only compaction and verification run on a schedule");
        }
        schedule = RequestChecks.required(schedule, "schedule");
        if (schedule.startsWith("@")) {
            if (!schedule.matches("@(yearly|annually|monthly|weekly|daily|midnight|hourly)")) {
                throw new IllegalArgumentException("unknown schedule macro: " + schedule);
            }
        } else if (schedule.split("\\s+").length != 5) {
            throw new IllegalArgumentException("schedule needs five cron fields: " + schedule);
        }
        if (schedule.contains("TZ=")) {
            throw new IllegalArgumentException("give the time zone with --time-zone, not TZ= in the schedule");
        }
        timeZone = RequestChecks.blankToNull(timeZone);
        startingDeadline = RequestChecks.positive(
                startingDeadline == null ? DEFAULT_STARTING_DEADLINE : startingDeadline, "starting deadline");
        if (successfulJobsHistoryLimit < 0 || failedJobsHistoryLimit < 0) {
            throw new IllegalArgumentException("history limits must not be negative");
        }
    }
}
