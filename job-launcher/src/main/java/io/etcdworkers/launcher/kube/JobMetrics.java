package io.etcdworkers.launcher.kube;

import io.etcdworkers.contract.BuildVersion;
import io.etcdworkers.contract.ErrorCode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * What the launcher, used as a library, counts of the Jobs it watched to their end, in the caller's
 * Micrometer registry (a Prometheus registry shows {@code etcdworkers_jobs_total} and
 * {@code etcdworkers_job_duration_seconds}), tagged like etcd-druid's compaction metrics
 * ({@code etcddruid_compaction_jobs_total{succeeded, failureReason}}) plus the kind and the etcd:
 * <ul>
 *   <li>{@code kind}: restore, compaction, extract, verify, drill;</li>
 *   <li>{@code etcd}: the etcd the Job is for;</li>
 *   <li>{@code succeeded}: true or false;</li>
 *   <li>{@code failureReason}: none; the worker's error code ({@code hash_mismatch},
 *       {@code store_unavailable}, ...); else the Job controller's reason ({@code deadlineexceeded},
 *       {@code backofflimitexceeded}); else {@code unknown}.</li>
 * </ul>
 */
public final class JobMetrics {
    public static final String JOBS = "etcdworkers.jobs";
    public static final String DURATION = "etcdworkers.job.duration";

    private final MeterRegistry registry;

    /**
     * 1, tagged with the launcher's {@code version}: an info metric, so the counters' series stay the
     * same across upgrades.
     */
    public static final String BUILD_INFO = "etcdworkers.launcher.build.info";

    public JobMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        Gauge.builder(BUILD_INFO, () -> 1)
                .description("The launcher's version")
                .tag("version", BuildVersion.current())
                .register(registry);
    }

    /** Counts one Job that ended, and how long it took from its creation. */
    public void record(String kind, String etcd, JobOutcome outcome, Duration took) {
        boolean succeeded = outcome.state() == JobOutcome.State.SUCCEEDED && outcome.exitCode() == 0;
        String reason = succeeded ? "none" : failureReason(outcome);
        Counter.builder(JOBS)
                .description("Jobs the launcher watched to their end")
                .tag("kind", kind)
                .tag("etcd", etcd)
                .tag("succeeded", Boolean.toString(succeeded))
                .tag("failureReason", reason)
                .register(registry)
                .increment();
        Timer.builder(DURATION)
                .description("From the Job's creation to its end")
                .tag("kind", kind)
                .tag("etcd", etcd)
                .tag("succeeded", Boolean.toString(succeeded))
                .tag("failureReason", reason)
                .register(registry)
                .record(took.isNegative() ? Duration.ZERO : took);
    }

    private static String failureReason(JobOutcome outcome) {
        if (outcome.oomKilled()) {
            return "oom_killed";
        }
        Integer code = outcome.result() != null ? outcome.result().exitCode() : outcome.containerExitCode();
        if (code != null && code != 0) {
            int exit = code;
            return ErrorCode.of(exit)
                    .map(c -> c.name().toLowerCase(Locale.ROOT))
                    .orElse("exit_" + exit);
        }
        if (outcome.reason() != null && !outcome.reason().isBlank()) {
            return outcome.reason().toLowerCase(Locale.ROOT);
        }
        return "unknown";
    }
}
