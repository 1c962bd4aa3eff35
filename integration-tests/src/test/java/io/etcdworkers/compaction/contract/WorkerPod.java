package io.etcdworkers.compaction.contract;

import io.etcdworkers.compaction.cli.CompactionWorkerCommand;
import io.etcdworkers.launcher.job.JobFactory;
import io.etcdworkers.launcher.job.JobRequest;
import io.etcdworkers.launcher.job.WorkerKind;
import io.etcdworkers.restore.cli.MemberOptions;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.workercli.DefragOptions;
import io.etcdworkers.workercli.RebuildOptions;
import io.etcdworkers.workercli.WorkerContext;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * A launcher-built Job's worker container, parsed as its pod would run it: the Job's command
 * names the jar's subcommand, its args and its plain environment go to the worker's own command
 * line ({@link RestoreWorkerCommand} or {@link CompactionWorkerCommand}, with the workers'
 * conventions: environment twins, case-insensitive enums). Nothing runs; only the flags are read.
 *
 * @param job     the Job the launcher built
 * @param command the container's command ({@code java -jar <jar> <subcommand>})
 * @param args    the container's args
 * @param env     the container's environment with plain values (those from the downward API left out)
 * @param parsed  the worker's parse of {@code <subcommand> <args>}, with the environment as the pod's
 */
record WorkerPod(Job job, List<String> command, List<String> args, Map<String, String> env, ParseResult parsed) {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC);

    /** Builds the Job for {@code request} and parses its container as the worker would. */
    static WorkerPod of(JobRequest request) {
        return of(request.kind(), new JobFactory(CLOCK).build(request));
    }

    /** Parses the worker container of a Job the launcher built (or rendered as YAML). */
    static WorkerPod of(WorkerKind kind, Job job) {
        Container c = job.getSpec().getTemplate().getSpec().getContainers().get(0);
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvVar v : c.getEnv()) {
            if (v.getValue() != null) {
                env.put(v.getName(), v.getValue());
            }
        }
        return new WorkerPod(job, c.getCommand(), c.getArgs(), env, parse(kind, c.getCommand(), c.getArgs(), env));
    }

    /** The worker's parse of {@code args} for the Job's subcommand, with {@code env} as the environment. */
    static ParseResult parse(WorkerKind kind, List<String> command, List<String> args, Map<String, String> env) {
        List<String> line = new ArrayList<>();
        line.add(command.get(command.size() - 1));
        line.addAll(args);
        return workerCommandLine(kind, env).parseArgs(line.toArray(String[]::new));
    }

    static CommandLine workerCommandLine(WorkerKind kind, Map<String, String> env) {
        WorkerContext context = context(env);
        return kind == WorkerKind.COMPACT || kind == WorkerKind.COPY
                ? CompactionWorkerCommand.commandLine(context)
                : RestoreWorkerCommand.commandLine(context);
    }

    static WorkerContext context(Map<String, String> env) {
        PrintStream discard = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        return new WorkerContext(env, discard, discard, CLOCK, Path.of("/"), Path.of("/nonexistent/termination-log"));
    }

    /** The subcommand's spec, after the parse. */
    CommandSpec spec() {
        return parsed.subcommand().commandSpec();
    }

    /** The value the worker holds for a flag after the parse (its default when the flag was not given). */
    <T> T value(String flag) {
        CommandLine.Model.OptionSpec option = spec().findOption(flag);
        if (option == null) {
            throw new AssertionError("the worker has no " + flag);
        }
        return option.getValue();
    }

    DefragOptions defrag() {
        return mixin("defrag", DefragOptions.class);
    }

    RebuildOptions etcd() {
        return mixin("etcd", RebuildOptions.class);
    }

    MemberOptions member() {
        return mixin("member", MemberOptions.class);
    }

    private <T> T mixin(String name, Class<T> type) {
        CommandSpec mixin = spec().mixins().get(name);
        if (mixin == null) {
            throw new AssertionError("the worker's " + spec().name() + " has no mixin " + name);
        }
        return type.cast(mixin.userObject());
    }
}
