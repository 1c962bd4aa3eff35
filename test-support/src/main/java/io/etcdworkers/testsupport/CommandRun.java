package io.etcdworkers.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Runs a worker command in process and captures its exit code, stdout and stderr.
 *
 * <p>Generic over what the command takes from the process around it: the caller names how to
 * build that context from the captured streams (for the workers, the canonical constructor of
 * their context record fits), so this class knows no worker type.
 *
 * <pre>{@code
 * CommandRun run = CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run, env, dir, "verify-backup", ...);
 * }</pre>
 */
public record CommandRun(int exitCode, String stdout, String stderr) {

    /** Builds a command's context; the termination log given is a path in the working dir that no one reads. */
    @FunctionalInterface
    public interface Context<C> {
        C create(
                Map<String, String> env,
                PrintStream out,
                PrintStream err,
                Clock clock,
                Path workingDir,
                Path terminationLog);
    }

    public static <C> CommandRun run(
            Context<C> context,
            BiFunction<C, String[], Integer> command,
            Map<String, String> env,
            Path workingDir,
            String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        C created = context.create(
                env,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                Clock.systemUTC(),
                workingDir,
                workingDir.resolve("no-termination-log"));
        int code = command.apply(created, args);
        return new CommandRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The result JSON printed on stdout (its last line). */
    public JsonNode result() {
        String[] lines = stdout.strip().split("\n");
        try {
            return new ObjectMapper().readTree(lines[lines.length - 1]);
        } catch (IOException e) {
            throw new UncheckedIOException("stdout is not a result JSON: " + stdout, e);
        }
    }
}
