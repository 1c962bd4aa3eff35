package io.etcdworkers.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a worker's shaded jar in its own JVM, as the Job does, with exactly the environment given
 * (nothing inherited) and the working directory given; captures exit code, stdout and stderr.
 */
public record JarRun(int exitCode, String stdout, String stderr) {
    private static final Duration TIMEOUT = Duration.ofSeconds(240);

    /**
     * @param jvmOptions options before {@code -jar} (e.g. {@code -Djava.io.tmpdir=...})
     */
    public static JarRun run(
            Path jar, Map<String, String> env, Path workingDir, List<String> jvmOptions, String... args) {
        return run(List.of(), jar, env, workingDir, jvmOptions, args);
    }

    /**
     * The same, the JVM started by {@code /bin/sh} with the umask given ({@code "022"}), as a
     * shell or a container with that umask starts it.
     */
    public static JarRun runWithUmask(
            String umask, Path jar, Map<String, String> env, Path workingDir, List<String> jvmOptions, String... args) {
        return run(
                List.of("/bin/sh", "-c", "umask " + umask + "; exec \"$@\"", "sh"),
                jar,
                env,
                workingDir,
                jvmOptions,
                args);
    }

    private static JarRun run(
            List<String> launcher,
            Path jar,
            Map<String, String> env,
            Path workingDir,
            List<String> jvmOptions,
            String... args) {
        List<String> command = new ArrayList<>(launcher);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(List.of(args));
        ProcessRun run = ProcessRun.run(command, env, workingDir, workingDir.getParent(), TIMEOUT);
        return new JarRun(run.exitCode(), run.stdout(), run.stderr());
    }

    /** The worker's jar named by a system property the pom sets ({@code worker.jar}, {@code restore.jar}). */
    public static Path jar(String property) {
        String path = System.getProperty(property);
        if (path == null || !Files.isRegularFile(Path.of(path))) {
            throw new IllegalStateException("system property " + property + " must name a built jar, got " + path);
        }
        return Path.of(path);
    }
}
