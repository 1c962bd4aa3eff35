package io.etcdworkers.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a program to its end with exactly the environment given (nothing inherited: etcd and its
 * tools read {@code ETCD_*}/{@code ETCDCTL_*} variables, a worker reads {@code ETCD_WORKER_*}),
 * stdin closed, and captures its exit code, stdout and stderr. It is killed after the timeout.
 *
 * <p>The output goes to files, not pipes: a grandchild that kept an inherited pipe open would
 * leave a reader waiting after the program itself ended.
 */
public record ProcessRun(int exitCode, String stdout, String stderr) {

    /** Runs a tool in the test JVM's working directory, its output in the default temp dir. */
    public static ProcessRun run(List<String> command, Map<String, String> env, Duration timeout) {
        return run(command, env, null, null, timeout);
    }

    /**
     * @param workingDir the program's working directory; null: the test JVM's
     * @param outputDir where its output is kept while it runs (deleted after); null: the default temp dir
     */
    public static ProcessRun run(
            List<String> command, Map<String, String> env, Path workingDir, Path outputDir, Duration timeout) {
        try {
            Path out = tempFile(outputDir, ".out");
            Path err = tempFile(outputDir, ".err");
            try {
                ProcessBuilder builder =
                        new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
                if (workingDir != null) {
                    builder.directory(workingDir.toFile());
                }
                builder.environment().clear();
                builder.environment().putAll(env);
                Process process = builder.start();
                process.getOutputStream().close();
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly().waitFor();
                    throw new IllegalStateException("did not finish in " + timeout.toSeconds() + " s: " + command);
                }
                return new ProcessRun(
                        process.exitValue(),
                        Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        }
    }

    private static Path tempFile(Path dir, String suffix) throws IOException {
        return dir == null ? Files.createTempFile("run-", suffix) : Files.createTempFile(dir, "run-", suffix);
    }

    /** stdout when the program exited 0; otherwise an error with the command and everything it said. */
    public String requireSuccess(List<String> command) {
        if (exitCode != 0) {
            throw new IllegalStateException(command + " exited with " + exitCode + ":\n" + stdout + stderr);
        }
        return stdout;
    }
}
