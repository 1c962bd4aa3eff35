package io.etcdworkers.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a class's {@code main} in a JVM of its own, on the test JVM's class path, with the JVM
 * options given: what a test needs when a setting is read once per JVM (a system property, the
 * heap's size, a process limit). The environment is empty, as {@link ProcessRun} makes it.
 */
public final class MainRun {
    private MainRun() {}

    /** The run; {@link #output} is what it printed. */
    public static ProcessRun run(Class<?> main, List<String> jvmOptions, Duration timeout, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        return ProcessRun.run(command, Map.of(), timeout);
    }

    /** Everything a run printed, stdout then stderr. */
    public static String output(ProcessRun run) {
        return run.stdout() + run.stderr();
    }
}
