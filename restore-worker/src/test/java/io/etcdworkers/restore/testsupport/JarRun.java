package io.etcdworkers.restore.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a worker's shaded jar in its own JVM, as the Job does, with exactly the environment given
 * (nothing inherited) and the working directory given; captures exit code, stdout and stderr.
 */
public record JarRun(int exitCode, String stdout, String stderr) {

    /**
     * @param jvmOptions options before {@code -jar} (e.g. {@code -Djava.io.tmpdir=...})
     */
    public static JarRun run(Path jar, Map<String, String> env, Path workingDir, List<String> jvmOptions,
            String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(List.of(args));
        try {
            Path out = Files.createTempFile(workingDir.getParent(), "jar-run-", ".out");
            Path err = Files.createTempFile(workingDir.getParent(), "jar-run-", ".err");
            ProcessBuilder builder = new ProcessBuilder(command).directory(workingDir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().clear();
            builder.environment().putAll(env);
            Process process = builder.start();
            if (!process.waitFor(240, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new IllegalStateException("worker did not finish in 240 s: " + command);
            }
            JarRun run = new JarRun(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            Files.delete(out);
            Files.delete(err);
            return run;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
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
