package io.etcdworkers.restore.cli;

import io.etcdworkers.contract.WorkerCommands;
import io.etcdworkers.contract.WorkerEnv;
import io.etcdworkers.workercli.ExitCodeHelp;
import io.etcdworkers.workercli.WorkerCli;
import io.etcdworkers.workercli.WorkerContext;
import io.etcdworkers.workercli.WorkerVersion;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top command of {@code restore-worker.jar}; the work is in its subcommands. */
@Command(
        name = "restore-worker",
        mixinStandardHelpOptions = true,
        versionProvider = WorkerVersion.class,
        description = "Restores etcd data dirs from etcd-backup-restore buckets (full + delta snapshots).",
        footer = {
            "",
            "Every flag has an environment twin: " + WorkerEnv.FLAG_TWIN_PREFIX + " + the flag in upper snake "
                    + "case (--store-prefix: " + WorkerEnv.FLAG_TWIN_PREFIX + "STORE_PREFIX)."
        })
public final class RestoreWorkerCommand implements Callable<Integer> {
    static final String VERIFY_BACKUP = "verify-backup";

    @Spec
    CommandSpec spec;

    private final WorkerContext context;

    private RestoreWorkerCommand(WorkerContext context) {
        this.context = context;
    }

    /** Runs the command line and returns the exit code. */
    public static int run(WorkerContext context, String[] args) {
        return commandLine(context, args.length > 0 ? args[0] : null).execute(args);
    }

    /** The command line with every subcommand. */
    public static CommandLine commandLine(WorkerContext context) {
        return commandLine(context, null);
    }

    /**
     * The command line with only the subcommand {@code first} names, when it names one (the
     * usual start: {@code restore ...}), else with all of them. picocli reads a subcommand's
     * options from its annotations as it is added: the two not run cost every start about 40 ms
     * on the main thread before anything else happens.
     */
    static CommandLine commandLine(WorkerContext context, String first) {
        boolean known = VERIFY_BACKUP.equals(first)
                || WorkerCommands.RESTORE.equals(first)
                || WorkerCommands.EXTRACT.equals(first);
        CommandLine cli = WorkerCli.commandLine(new RestoreWorkerCommand(context), context);
        if (!known || VERIFY_BACKUP.equals(first)) {
            WorkerCli.addSubcommand(cli, new VerifyBackupCommand(context), context);
        }
        if (!known || WorkerCommands.RESTORE.equals(first)) {
            CommandLine restore = WorkerCli.addSubcommand(cli, new RestoreCommand(context), context);
            ExitCodeHelp.addTo(restore, "done", RestoreCommand.EXIT_CODES);
        }
        if (!known || WorkerCommands.EXTRACT.equals(first)) {
            CommandLine extract = WorkerCli.addSubcommand(cli, new ExtractCommand(context), context);
            ExitCodeHelp.addTo(extract, "done", RestoreCommand.EXIT_CODES);
        }
        return cli;
    }

    @Override
    public Integer call() {
        return WorkerCli.missingSubcommand(spec, context);
    }
}
