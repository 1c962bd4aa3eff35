package io.etcdworkers.compaction.cli;

import io.etcdworkers.compaction.lease.KubernetesClients;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerEnv;
import io.etcdworkers.workercli.ExitCodeHelp;
import io.etcdworkers.workercli.WorkerCli;
import io.etcdworkers.workercli.WorkerContext;
import io.etcdworkers.workercli.WorkerVersion;
import java.util.EnumSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top command of {@code compaction-worker.jar}; the work is in {@code compact}. */
@Command(
        name = "compaction-worker",
        mixinStandardHelpOptions = true,
        versionProvider = WorkerVersion.class,
        description = "Compacts etcd-backup-restore buckets: restores the latest full snapshot and its deltas, and "
                + "uploads one new full snapshot; copies backups between stores.",
        footer = {
            "",
            "Every flag has an environment twin: " + WorkerEnv.FLAG_TWIN_PREFIX + " + the flag in upper snake case."
        })
public final class CompactionWorkerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final WorkerContext context;

    private CompactionWorkerCommand(WorkerContext context) {
        this.context = context;
    }

    public static int run(WorkerContext context, String[] args) {
        return commandLine(context).execute(args);
    }

    public static CommandLine commandLine(WorkerContext context) {
        return commandLineWith(context, new KubernetesClients());
    }

    /** The command line with a given source of Kubernetes clients (tests point it at a mock server). */
    public static CommandLine commandLineWith(WorkerContext context, KubernetesClients kubernetes) {
        CommandLine cli = WorkerCli.commandLine(new CompactionWorkerCommand(context), context);
        CommandLine compact = WorkerCli.addSubcommand(cli, new CompactCommand(context, kubernetes), context);
        // every code: a compaction restores first, and has its own (LEASE_NOT_RENEWED)
        ExitCodeHelp.addTo(
                compact,
                "done, or skipped (too little to compact)",
                EnumSet.complementOf(EnumSet.of(ErrorCode.SOURCE_CHANGED, ErrorCode.STORE_WRITE_REFUSED)));
        CommandLine copy = WorkerCli.addSubcommand(cli, new CopyCommand(context), context);
        ExitCodeHelp.addTo(copy, "done (nothing to copy included)", CopyCommand.EXIT_CODES);
        return cli;
    }

    @Override
    public Integer call() {
        return WorkerCli.missingSubcommand(spec, context);
    }
}
