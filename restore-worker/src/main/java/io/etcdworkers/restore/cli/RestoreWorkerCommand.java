package io.etcdworkers.restore.cli;

import io.etcdworkers.contract.WorkerEnv;
import io.etcdworkers.restore.workercli.ExitCodeHelp;
import io.etcdworkers.restore.workercli.WorkerCli;
import io.etcdworkers.restore.workercli.WorkerContext;
import io.etcdworkers.restore.workercli.WorkerVersion;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** The top command of {@code restore-worker.jar}; the work is in its subcommands. */
@Command(name = "restore-worker", mixinStandardHelpOptions = true, versionProvider = WorkerVersion.class,
        description = "Restores etcd data dirs from etcd-backup-restore buckets (full + delta snapshots).",
        footer = {"", "Every flag has an environment twin: " + WorkerEnv.FLAG_TWIN_PREFIX + " + the flag in upper snake "
                + "case (--store-prefix: " + WorkerEnv.FLAG_TWIN_PREFIX + "STORE_PREFIX)."})
public final class RestoreWorkerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Runs the command line and returns the exit code. */
    public static int run(WorkerContext context, String[] args) {
        return commandLine(context).execute(args);
    }

    public static CommandLine commandLine(WorkerContext context) {
        CommandLine cli = WorkerCli.commandLine(new RestoreWorkerCommand(), context.env(), context.out(), context.err());
        WorkerCli.addSubcommand(cli, new VerifyBackupCommand(context), context);
        CommandLine restore = WorkerCli.addSubcommand(cli, new RestoreCommand(context), context);
        ExitCodeHelp.addTo(restore, "done", RestoreCommand.EXIT_CODES);
        CommandLine extract = WorkerCli.addSubcommand(cli, new ExtractCommand(context), context);
        ExitCodeHelp.addTo(extract, "done", RestoreCommand.EXIT_CODES);
        return cli;
    }

    @Override
    public Integer call() {
        return WorkerCli.missingSubcommand(spec);
    }
}
