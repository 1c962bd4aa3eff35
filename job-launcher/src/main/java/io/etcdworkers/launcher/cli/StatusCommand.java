package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.job.JobNames;
import io.etcdworkers.launcher.kube.JobLauncher;
import io.etcdworkers.launcher.kube.JobOutcome;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code status}: one Job's outcome (or wait for it), or the list of the launcher's Jobs. */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description =
                "Print a Job's outcome (--wait: watch it and exit with the worker's exit code), or list the launcher's Jobs.")
final class StatusCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster;

    @Mixin
    StuckOptions stuck;

    @Parameters(arity = "0..1", paramLabel = "JOB", description = "The Job; without it, list the Jobs.")
    String job;

    @Option(names = "--wait", description = "Watch until the Job finishes; exit with the worker's exit code.")
    boolean await;

    @Option(
            names = "--timeout",
            converter = DurationConverter.class,
            defaultValue = "2h5m",
            description = "Default: ${DEFAULT-VALUE}.")
    Duration timeout;

    private final CliContext ctx;

    StatusCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        JobLauncher launcher = JobRun.reader(ctx, cluster);
        String namespace = cluster.namespace(ctx, false);
        if (job == null) {
            list(launcher.list(namespace));
            return 0;
        }
        if (await) {
            return JobRun.await(ctx, launcher, namespace, job, stuck.limits(timeout));
        }
        JobOutcome outcome = launcher.status(namespace, job);
        OutcomePrinter.print(ctx.out(), outcome);
        // a finished Job ends with the worker's code (53 when it left none); a running one with 0
        return outcome.finished() ? outcome.exitCode() : 0;
    }

    private void list(List<Job> jobs) {
        ctx.out().printf("%-50s %-11s %-20s %s%n", "JOB", "KIND", "ETCD", "STATE");
        for (Job j : jobs) {
            Map<String, String> labels = j.getMetadata().getLabels();
            String state = JobLauncher.terminalConditionType(j).orElse("Running");
            ctx.out()
                    .printf(
                            "%-50s %-11s %-20s %s%n",
                            j.getMetadata().getName(),
                            labels.getOrDefault(JobNames.LABEL_COMPONENT, "?"),
                            labels.getOrDefault(JobNames.LABEL_ETCD, "?"),
                            state);
        }
        ctx.out().flush();
    }
}
