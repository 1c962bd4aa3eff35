package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A worker jar in its own JVM, sent SIGTERM the moment its log (stderr) shows a line: what {@link
 * CrashRecoveryIT}'s SIGTERM moments run. The moment is found by the log, never by a delay.
 */
record SignalledRun(int exitCode, String stdout, String stderr, String lastLineBeforeSignal) {
    /** A Job's grace period is 30 s: the worker must be gone well within it. */
    static final Duration GRACE = Duration.ofSeconds(30);

    static SignalledRun sigtermAt(String marker, Path jar, List<String> jvm, List<String> args, Path run)
            throws Exception {
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvm);
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(args);
        Path stdout = run.resolve("signalled.out");
        Path stderr = run.resolve("signalled.err");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(run.resolve("work").toFile())
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile());
        builder.environment().clear();
        builder.environment().put("PATH", System.getenv("PATH"));
        Process worker = builder.start();
        try {
            Awaitility.await("the log line \"" + marker + "\"")
                    .atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(5))
                    .until(() -> !worker.isAlive() || Files.readString(stderr).contains(marker));
            assertThat(worker.isAlive())
                    .as("the worker ran until \"%s\": %s", marker, Files.readString(stderr))
                    .isTrue();
            List<String> before = Files.readAllLines(stderr, StandardCharsets.UTF_8);
            worker.destroy(); // SIGTERM
            assertThat(worker.waitFor(GRACE.toSeconds(), TimeUnit.SECONDS))
                    .as("the worker ended within the grace period after SIGTERM at \"%s\"", marker)
                    .isTrue();
            return new SignalledRun(
                    worker.exitValue(),
                    Files.readString(stdout),
                    Files.readString(stderr),
                    before.isEmpty() ? "(no log)" : before.get(before.size() - 1));
        } finally {
            worker.destroyForcibly();
        }
    }
}
