package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.kube.JobLauncher;
import io.etcdworkers.launcher.kube.LauncherError;
import io.etcdworkers.launcher.kube.LauncherException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code cancel}: delete a Job and its pods. */
@Command(
        name = "cancel",
        mixinStandardHelpOptions = true,
        description = "Delete a Job and its pods (foreground propagation); the worker gets SIGTERM and cleans up.")
final class CancelCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster;

    @Parameters(paramLabel = "JOB", description = "The Job to cancel.")
    String job;

    private final CliContext ctx;

    CancelCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        String namespace = cluster.namespace(ctx, false);
        if (!new JobLauncher(cluster.client(ctx)).cancel(namespace, job)) {
            throw new LauncherException(LauncherError.NOT_FOUND, "no Job " + job + " in " + namespace);
        }
        ctx.out().println("job " + namespace + "/" + job + " cancelled");
        ctx.out().flush();
        return 0;
    }
}
