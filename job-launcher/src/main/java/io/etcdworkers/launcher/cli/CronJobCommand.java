package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.job.CronJobFactory;
import io.etcdworkers.launcher.job.CronJobRequest;
import io.etcdworkers.launcher.job.JobFactory;
import io.etcdworkers.launcher.kube.JobLauncher;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cronjob}: scheduled compaction; create or update the CronJob, or print it. */
@Command(
        name = "cronjob",
        mixinStandardHelpOptions = true,
        description = "Create or update (or print with --dry-run) a CronJob that compacts on a schedule.")
final class CronJobCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster;

    @Mixin
    PodOptions pod;

    @Mixin
    StoreOptions store;

    @Mixin
    DefragOptions defrag;

    @Mixin
    CompactOptions compact;

    @Mixin
    FromEtcdOptions from;

    @Option(names = "--schedule", required = true, description = "Cron schedule, e.g. '17 */6 * * *'.")
    String schedule;

    @Option(names = "--time-zone", description = "IANA time zone of the schedule.")
    String timeZone;

    @Option(
            names = "--starting-deadline",
            converter = DurationConverter.class,
            defaultValue = "30m",
            description = "Skip a run missed by more than this. Default: ${DEFAULT-VALUE}.")
    Duration startingDeadline;

    @Option(names = "--successful-jobs-history", defaultValue = "3", description = "Default: ${DEFAULT-VALUE}.")
    int successfulHistory;

    @Option(names = "--failed-jobs-history", defaultValue = "3", description = "Default: ${DEFAULT-VALUE}.")
    int failedHistory;

    @Option(names = "--dry-run", description = "Print the YAML instead of applying it.")
    boolean dryRun;

    private final CliContext ctx;

    CronJobCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        String namespace = from.namespace(ctx, cluster, dryRun);
        from.read(ctx, cluster, namespace).ifPresent(etcd -> CompactCommand.takeFrom(etcd, pod, store, compact));
        CronJobRequest request = new CronJobRequest(
                CompactCommand.request(namespace, pod, store, defrag, compact),
                schedule,
                timeZone,
                startingDeadline,
                successfulHistory,
                failedHistory);
        CronJob cron = new CronJobFactory(new JobFactory(ctx.clock())).build(request);
        if (dryRun) {
            return JobRun.print(ctx, cron);
        }
        CronJob applied = new JobLauncher(cluster.clientForJobs(ctx)).applyCronJob(cron);
        ctx.out()
                .println("cronjob " + applied.getMetadata().getNamespace() + "/"
                        + applied.getMetadata().getName()
                        + " applied (run it now: kubectl create job --from=cronjob/"
                        + applied.getMetadata().getName()
                        + " <name> -n " + applied.getMetadata().getNamespace() + ")");
        ctx.out().flush();
        return 0;
    }
}
