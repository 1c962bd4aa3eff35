package io.etcdworkers.launcher.cli;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.launcher.job.JobFactory;
import io.etcdworkers.launcher.job.JobRequest;
import io.etcdworkers.launcher.kube.JobLauncher;
import io.etcdworkers.launcher.kube.JobOutcome;
import io.etcdworkers.launcher.kube.WatchLimits;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The shared tail of {@code restore} and {@code compact}: print, or create and maybe wait. */
final class JobRun {
    static final Duration WAIT_MARGIN = Duration.ofMinutes(5);
    private static final KubernetesSerialization YAML = new KubernetesSerialization();

    private JobRun() {}

    /** Builds the Job, named by {@code --job-name} when given, then prints it or creates it. */
    static int run(CliContext ctx, ClusterOptions cluster, RunOptions run, StuckOptions stuck, JobRequest request) {
        run.check();
        JobFactory jobs = new JobFactory(ctx.clock());
        Job job = run.jobName == null ? jobs.build(request) : jobs.build(request, run.jobName);
        if (run.dryRun) {
            return print(ctx, job);
        }
        JobLauncher launcher = launcher(ctx, cluster);
        Job created = launcher.create(job);
        String name = created.getMetadata().getName();
        ctx.out().println("job " + created.getMetadata().getNamespace() + "/" + name + " created");
        ctx.out().flush();
        if (!run.await) {
            return 0;
        }
        Duration timeout = run.timeout != null
                ? run.timeout
                : Duration.ofSeconds(job.getSpec().getActiveDeadlineSeconds()).plus(WAIT_MARGIN);
        return awaitAndRecord(ctx, launcher, created, stuck.limits(timeout));
    }

    /**
     * Several Jobs of one run (a restore per member): printed as one YAML stream, or all created
     * first and then, with {@code --wait}, watched one after the other; the exit code is the first
     * non-zero one, so a member that failed is never hidden behind one that succeeded. When every
     * member succeeded, their results must report the same revision bump ({@link MemberBumps}),
     * else the run fails with {@link ErrorCode#BACKUP_INCONSISTENT}.
     */
    static int runAll(CliContext ctx, ClusterOptions cluster, RunOptions run, StuckOptions stuck, List<Job> jobs) {
        run.check();
        if (run.dryRun) {
            jobs.forEach(job -> print(ctx, job));
            return 0;
        }
        JobLauncher launcher = launcher(ctx, cluster);
        List<Job> created = new ArrayList<>();
        for (Job job : jobs) {
            Job c = launcher.create(job);
            created.add(c);
            ctx.out()
                    .println("job " + c.getMetadata().getNamespace() + "/"
                            + c.getMetadata().getName() + " created");
        }
        ctx.out().flush();
        if (!run.await) {
            return 0;
        }
        int code = 0;
        List<JobOutcome> outcomes = new ArrayList<>();
        for (Job c : created) {
            Duration timeout = run.timeout != null
                    ? run.timeout
                    : Duration.ofSeconds(c.getSpec().getActiveDeadlineSeconds()).plus(WAIT_MARGIN);
            JobOutcome outcome = watchAndRecord(ctx, launcher, c, stuck.limits(timeout));
            outcomes.add(outcome);
            code = code == 0 ? outcome.exitCode() : code;
        }
        if (code == 0) {
            Optional<String> differ = MemberBumps.disagreement(outcomes);
            if (differ.isPresent()) {
                ctx.err().println("error: " + differ.get());
                ctx.err().flush();
                return ErrorCode.BACKUP_INCONSISTENT.exitCode();
            }
        }
        return code;
    }

    /**
     * A launcher that creates Jobs, on a cluster new enough for them, whose watch measures time
     * (timeout, how long a pod is stuck) with the context's clock.
     */
    static JobLauncher launcher(CliContext ctx, ClusterOptions cluster) {
        return new JobLauncher(cluster.clientForJobs(ctx), ctx.clock(), JobLauncher.DEFAULT_POLL_INTERVAL);
    }

    /** A launcher that only reads and watches the Jobs there are, on any cluster. */
    static JobLauncher reader(CliContext ctx, ClusterOptions cluster) {
        return new JobLauncher(cluster.client(ctx), ctx.clock(), JobLauncher.DEFAULT_POLL_INTERVAL);
    }

    /** Watches a Job this run created and records its outcome as an Event on it. */
    static int awaitAndRecord(CliContext ctx, JobLauncher launcher, Job created, WatchLimits limits) {
        return watchAndRecord(ctx, launcher, created, limits).exitCode();
    }

    private static JobOutcome watchAndRecord(CliContext ctx, JobLauncher launcher, Job created, WatchLimits limits) {
        JobOutcome outcome = launcher.watch(
                created.getMetadata().getNamespace(),
                created.getMetadata().getName(),
                limits,
                OutcomePrinter.progress(ctx.err()),
                OutcomePrinter.diagnostics(ctx.err()));
        OutcomePrinter.print(ctx.out(), outcome);
        launcher.recordOutcome(created, outcome, ctx.clock().instant());
        return outcome;
    }

    static int await(CliContext ctx, JobLauncher launcher, String namespace, String name, WatchLimits limits) {
        JobOutcome outcome = launcher.watch(
                namespace, name, limits, OutcomePrinter.progress(ctx.err()), OutcomePrinter.diagnostics(ctx.err()));
        OutcomePrinter.print(ctx.out(), outcome);
        return outcome.exitCode();
    }

    static int print(CliContext ctx, HasMetadata object) {
        ctx.out().print(YAML.asYaml(object));
        ctx.out().flush();
        return 0;
    }
}
