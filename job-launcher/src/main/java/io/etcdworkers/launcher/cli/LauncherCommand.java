package io.etcdworkers.launcher.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;

/** The top command: only groups the subcommands. */
@Command(
        name = "job-launcher",
        mixinStandardHelpOptions = true,
        versionProvider = LauncherVersion.class,
        description = {
            "Builds, creates, watches and reports the etcd restoration and compaction Jobs.",
            "Every option has an environment twin: --store-prefix is LAUNCHER_STORE_PREFIX."
        },
        subcommands = {
            RestoreCommand.class,
            ExtractCommand.class,
            CompactCommand.class,
            CopyCommand.class,
            VerifyCommand.class,
            CronJobCommand.class,
            StatusCommand.class,
            CancelCommand.class,
            LeaseRoleCommand.class,
            HelpCommand.class
        })
final class LauncherCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }
}
