package io.etcdworkers.workercli;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * Runs a picocli command tree with the workers' conventions: environment twins for every
 * flag, usage errors exit 2 (a mistyped flag with the ones it resembles) with a result JSON that
 * says so, a {@link WorkerException} exits with its code and is logged once, anything else exits 1.
 */
public final class WorkerCli {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerCli.class);

    private WorkerCli() {}

    public static CommandLine commandLine(Object command, Map<String, String> env, PrintStream out, PrintStream err) {
        return commandLine(
                command,
                new WorkerContext(
                        env,
                        out,
                        err,
                        Clock.systemUTC(),
                        Path.of("").toAbsolutePath(),
                        ResultReporter.DEFAULT_TERMINATION_LOG));
    }

    /** As above, with the context's streams, environment and termination log. */
    public static CommandLine commandLine(Object command, WorkerContext context) {
        Map<String, String> env = context.env();
        PrintStream out = context.out();
        PrintStream err = context.err();
        CommandLine cli = new CommandLine(command);
        cli.setDefaultValueProvider(new EnvDefaultProvider(env));
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            WorkerException failure = WorkerFailures.of(ex);
            if (failure.code() == ErrorCode.INTERRUPTED) {
                // what was removed on the way out is logged by each cleanup (and what could not be, at WARN)
                LOG.error("stopped by a signal before finishing: {}", failure.getMessage());
                return failure.code().exitCode();
            }
            if (ex instanceof WorkerException we) {
                LOG.error("failed code={} exitCode={}: {}", we.code(), we.code().exitCode(), we.getMessage());
                return we.code().exitCode();
            }
            LOG.error("unexpected failure", ex);
            return ErrorCode.UNEXPECTED.exitCode();
        });
        cli.setParameterExceptionHandler((ex, args) -> {
            CommandLine failed = ex.getCommandLine();
            failed.getErr().println("error: " + ex.getMessage());
            // a mistyped flag: picocli names the flags it resembles ("Possible solutions: ...")
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, failed.getErr());
            failed.getErr().println("run with --help for the flags and their environment variables");
            UsageResult.publish(
                    context,
                    failed.getCommandName(),
                    ex.getMessage(),
                    failed.getCommandSpec().findOption(UsageResult.RESULT_FILE) != null,
                    args);
            return ErrorCode.USAGE.exitCode();
        });
        return cli;
    }

    /**
     * What a top command does when no subcommand was given: says so, prints usage and a result
     * JSON, exit 2.
     */
    public static int missingSubcommand(CommandLine.Model.CommandSpec spec, WorkerContext context) {
        spec.commandLine().getErr().println("error: a command is required");
        spec.commandLine().usage(spec.commandLine().getErr());
        UsageResult.publish(
                context, spec.name(), "a command is required: run with --help for the commands", false, new String[0]);
        return ErrorCode.USAGE.exitCode();
    }

    /** Adds a subcommand with the same conventions as its parent, and returns it. */
    public static CommandLine addSubcommand(CommandLine parent, Object command, WorkerContext context) {
        CommandLine sub = commandLine(command, context);
        parent.addSubcommand(sub);
        return sub;
    }
}
