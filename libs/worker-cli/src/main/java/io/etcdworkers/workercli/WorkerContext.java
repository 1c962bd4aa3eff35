package io.etcdworkers.workercli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * What a command gets from the process around it, injected so tests can run commands in
 * process: the environment, where the result goes, the clock, the working directory and the
 * termination log path.
 */
public record WorkerContext(
        Map<String, String> env, PrintStream out, PrintStream err, Clock clock, Path workingDir, Path terminationLog) {

    public WorkerContext {
        env = Map.copyOf(env);
    }

    /** The real process. */
    public static WorkerContext ofProcess() {
        return new WorkerContext(
                System.getenv(),
                System.out,
                System.err,
                Clock.systemUTC(),
                Path.of("").toAbsolutePath(),
                ResultReporter.DEFAULT_TERMINATION_LOG);
    }
}
