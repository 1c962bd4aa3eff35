package io.etcdworkers.restore.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.restore.cli.WorkerContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.function.BiFunction;

/** Runs a worker command in process and captures its exit code, stdout and stderr. */
public record CommandRun(int exitCode, String stdout, String stderr) {

    public static CommandRun run(BiFunction<WorkerContext, String[], Integer> command, Map<String, String> env,
            Path workingDir, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        WorkerContext context = new WorkerContext(env, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Clock.systemUTC(), workingDir,
                workingDir.resolve("no-termination-log"));
        int code = command.apply(context, args);
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
