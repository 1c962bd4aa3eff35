package io.etcdworkers.integration.pod;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.JarRun;
import io.etcdworkers.testsupport.ProcessRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The launcher as its users run it: {@code java -jar job-launcher.jar <command> ...} in a JVM of its
 * own, with a home of its own (no {@code ~/.kube/config} of the machine's) and, when a cluster is
 * given, {@code KUBECONFIG} naming it. The tests depend on its command line and output only.
 */
final class LauncherJar {
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    private final Path home;
    private final Path kubeconfig;
    private final Duration clientTimeout;

    private LauncherJar(Path home, Path kubeconfig) {
        this(home, kubeconfig, null);
    }

    private LauncherJar(Path home, Path kubeconfig, Duration clientTimeout) {
        this.home = home;
        this.kubeconfig = kubeconfig;
        this.clientTimeout = clientTimeout;
    }

    /**
     * This launcher with its Kubernetes client waiting {@code timeout} (instead of 10 s) to connect
     * and for each answer (fabric8's {@code KUBERNETES_CONNECTION_TIMEOUT} and
     * {@code KUBERNETES_REQUEST_TIMEOUT}): for a machine so loaded that the mock's answers take longer.
     */
    LauncherJar clientTimeout(Duration timeout) {
        return new LauncherJar(home, kubeconfig, timeout);
    }

    /** A launcher without a cluster: {@code --dry-run} only. */
    static LauncherJar withoutCluster(Path dir) {
        return new LauncherJar(mkdirs(dir.resolve("launcher-home")), null);
    }

    /** A launcher whose kubeconfig points at {@code api}. */
    static LauncherJar against(ApiServer api, Path dir) {
        return new LauncherJar(mkdirs(dir.resolve("launcher-home")), api.kubeconfig(dir.resolve("kubeconfig")));
    }

    /** The YAML of {@code <command> <args> --dry-run}; fails unless it exits 0. */
    String render(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--dry-run");
        ProcessRun run = run(all.toArray(String[]::new));
        assertThat(run.exitCode()).as("job-launcher %s:\n%s", all, run.stderr()).isZero();
        return run.stdout();
    }

    /** Runs the launcher to its end. */
    ProcessRun run(String... args) {
        return ProcessRun.run(command(args), env(), home, null, TIMEOUT);
    }

    /** Starts the launcher (a command that waits: {@code --wait}, {@code --memory-limit=auto}). */
    Running start(String... args) {
        try {
            Path out = Files.createTempFile(home, "launcher-", ".out");
            Path err = Files.createTempFile(home, "launcher-", ".err");
            ProcessBuilder builder = new ProcessBuilder(command(args))
                    .directory(home.toFile())
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            builder.environment().clear();
            builder.environment().putAll(env());
            Process process = builder.start();
            process.getOutputStream().close();
            return new Running(process, out, err);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A launcher that runs. */
    record Running(Process process, Path out, Path err) {
        ProcessRun await(Duration timeout) {
            try {
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly().waitFor();
                    throw new AssertionError("the launcher did not end in " + timeout.toSeconds() + " s:\n" + stderr());
                }
                return new ProcessRun(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), stderr());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        String stderr() {
            try {
                return Files.readString(err, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Duser.home=" + home,
                "-jar",
                JarRun.jar("launcher.jar").toString()));
        command.addAll(List.of(args));
        return command;
    }

    private Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("HOME", home.toString());
        if (kubeconfig != null) {
            env.put("KUBECONFIG", kubeconfig.toString());
        }
        if (clientTimeout != null) {
            env.put("KUBERNETES_CONNECTION_TIMEOUT", Long.toString(clientTimeout.toMillis()));
            env.put("KUBERNETES_REQUEST_TIMEOUT", Long.toString(clientTimeout.toMillis()));
        }
        return env;
    }

    private static Path mkdirs(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
