package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.job.CronJobFactory;
import io.etcdworkers.launcher.job.CronJobRequest;
import io.etcdworkers.launcher.job.JobFactory;
import io.etcdworkers.launcher.job.JobRequest;
import io.etcdworkers.launcher.job.JobWork;
import io.etcdworkers.launcher.kube.JobLauncher;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code verify}: a backup health check as a Job, or with {@code --schedule} a CronJob, so that a
 * damaged backup raises an alert before an outage needs it: {@code verify-backup} (every object a
 * restore would use, read and checked, the restorable range reported), or with {@code --drill} a
 * whole restore verified by a real etcd into the pod's scratch volume, thrown away with the pod.
 */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description = "Create (or print with --dry-run) a Job, or with --schedule a CronJob, that checks the backups: "
                + "verify-backup, or with --drill a full restore into the scratch volume, verified and thrown away.")
final class VerifyCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster;

    @Mixin
    PodOptions pod;

    @Mixin
    StoreOptions store;

    @Mixin
    DefragOptions defrag;

    @Mixin
    RunOptions run;

    @Mixin
    StuckOptions stuck;

    @Mixin
    FromEtcdOptions from;

    @Option(
            names = "--drill",
            description =
                    "Restore the latest state into the scratch volume (verified by etcd, then "
                            + "thrown away) instead of only reading the objects; the scratch volume must hold the database twice.")
    boolean drill;

    @Option(names = "--schedule", description = "Cron schedule, e.g. '43 3 * * *': render a CronJob instead of a Job.")
    String schedule;

    @Option(names = "--time-zone", description = "IANA time zone of the schedule.")
    String timeZone;

    private final CliContext ctx;

    VerifyCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        String namespace = from.namespace(ctx, cluster, run.dryRun);
        from.read(ctx, cluster, namespace).ifPresent(etcd -> FromEtcdOptions.applyCommon(etcd, pod, store));
        JobRequest request = pod.request(namespace, store, defrag, drill ? JobWork.DRILL : JobWork.VERIFY)
                .build();
        if (schedule == null) {
            return JobRun.run(ctx, cluster, run, stuck, request);
        }
        CronJob cron = new CronJobFactory(new JobFactory(ctx.clock()))
                .build(new CronJobRequest(
                        request,
                        schedule,
                        timeZone,
                        null,
                        CronJobRequest.DEFAULT_SUCCESSFUL_HISTORY,
                        CronJobRequest.DEFAULT_FAILED_HISTORY));
        if (run.dryRun) {
            return JobRun.print(ctx, cron);
        }
        CronJob applied = new JobLauncher(cluster.clientForJobs(ctx)).applyCronJob(cron);
        ctx.out()
                .println("cronjob " + applied.getMetadata().getNamespace() + "/"
                        + applied.getMetadata().getName() + " applied");
        ctx.out().flush();
        return 0;
    }
}
