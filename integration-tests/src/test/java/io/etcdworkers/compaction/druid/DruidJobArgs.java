package io.etcdworkers.compaction.druid;

import io.etcdworkers.compaction.cli.CompactionWorkerCommand;
import io.etcdworkers.workercli.WorkerContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * One case of etcd-druid's rendered Job arguments (test resources {@code DruidArgsContractTest/<case>/}:
 * {@code args} one a line, {@code env} {@code NAME=value} one a line), and the worker's command line
 * that reads them as the image's {@code etcdbrctl} entry point hands them over.
 *
 * @param name the case's directory
 * @param args the container's args; the first is etcdbrctl's subcommand
 * @param env the container's environment as the kubelet fills it
 */
record DruidJobArgs(String name, List<String> args, Map<String, String> env) {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-05T12:00:00Z"), ZoneOffset.UTC);

    /**
     * What {@code bin/etcdbrctl} adds to the environment for {@code compact} and {@code copy}: a Local
     * container under {@code $HOME}, as etcdbrctl v0.41 finds it; and the {@code HOME} the image gives
     * uid 65532.
     */
    static final Map<String, String> ENTRY_POINT_ENV =
            Map.of("ETCD_WORKER_LOCAL_UNDER_HOME", "true", "HOME", "/home/nonroot");

    static DruidJobArgs read(String name) {
        URL url = DruidJobArgs.class.getResource("/DruidArgsContractTest/" + name + "/args");
        if (url == null) {
            throw new IllegalArgumentException("no test data DruidArgsContractTest/" + name);
        }
        try {
            Path dir = Path.of(url.toURI()).getParent();
            List<String> args = Files.readAllLines(dir.resolve("args"), StandardCharsets.UTF_8).stream()
                    .filter(line -> !line.isEmpty())
                    .toList();
            Map<String, String> env = new LinkedHashMap<>();
            for (String line : Files.readAllLines(dir.resolve("env"), StandardCharsets.UTF_8)) {
                if (!line.isEmpty()) {
                    String[] pair = line.split("=", 2);
                    env.put(pair[0], pair[1]);
                }
            }
            return new DruidJobArgs(name, args, env);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** etcdbrctl's subcommand: {@code compact} or {@code copy}. */
    String subcommand() {
        return args.get(0);
    }

    /** The Job's environment with what the entry point adds. */
    Map<String, String> entryPointEnv() {
        Map<String, String> all = new LinkedHashMap<>(env);
        all.putAll(ENTRY_POINT_ENV);
        return all;
    }

    /** The compaction worker's command line, with the entry point's environment. */
    CommandLine workerCommandLine() {
        PrintStream discard = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        WorkerContext context = new WorkerContext(
                entryPointEnv(), discard, discard, CLOCK, Path.of("/"), Path.of("/nonexistent/termination-log"));
        return CompactionWorkerCommand.commandLine(context);
    }
}
