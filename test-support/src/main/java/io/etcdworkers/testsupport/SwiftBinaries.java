package io.etcdworkers.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Where Debian's Swift, Keystone and memcached programs are, and how the tests run them: the
 * system's Python (the packages' modules are there, not in a pyenv or venv the PATH may name
 * first), HOME in the test's directory, no inherited {@code PYTHON*} variables.
 */
record SwiftBinaries(Path python, Path memcached, Path keystoneManage, Path keystoneWsgiPublic, Path bin) {
    private static final String PACKAGES = "swift swift-proxy swift-account swift-container swift-object "
            + "python3-keystone python3-keystonemiddleware memcached";
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);

    /** The programs, or a skip (fail in CI) naming the packages. */
    static SwiftBinaries find() {
        Path bin = Path.of("/usr/bin");
        Path python = bin.resolve("python3");
        List<String> missing = new ArrayList<>();
        for (String name : List.of(
                "python3",
                "memcached",
                "keystone-manage",
                "keystone-wsgi-public",
                "swift-proxy-server",
                "swift-account-server",
                "swift-container-server",
                "swift-object-server")) {
            if (!Files.isExecutable(bin.resolve(name))) {
                missing.add(name);
            }
        }
        if (!missing.isEmpty()) {
            SwiftServer.missing("OpenStack Swift and Keystone not found (" + String.join(", ", missing) + " missing in "
                    + bin + "): run .ci/swift.sh, which installs Debian's " + PACKAGES);
        }
        return new SwiftBinaries(
                python,
                bin.resolve("memcached"),
                bin.resolve("keystone-manage"),
                bin.resolve("keystone-wsgi-public"),
                bin);
    }

    Path swiftServer(String server) {
        return bin.resolve("swift-" + server + "-server");
    }

    /** A process in {@code dir} with the environment these programs want. */
    ProcessBuilder process(Path dir, String... command) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
        env(builder.environment(), dir);
        return builder;
    }

    /** Starts a command that ends by itself, its output in {@code log}; {@link #await} it. */
    Process startTool(Path dir, Path log, String... command) {
        try {
            Files.createDirectories(log.getParent());
            Process process = process(dir, command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            process.getOutputStream().close();
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + List.of(command), e);
        }
    }

    /** Waits for a {@link #startTool} command; fails with its output unless it exits 0. */
    void await(Process process, Path log, String what) {
        try {
            if (!process.waitFor(RUN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(what + " did not finish in " + RUN_TIMEOUT.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(
                    what + " exited with " + process.exitValue() + ":\n" + ChildServer.logTail(log));
        }
    }

    /** Runs a command to its end; fails with its output unless it exits 0. */
    void run(Path dir, List<String> command) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env(env, dir);
        ProcessRun.run(command, env, dir, null, RUN_TIMEOUT).requireSuccess(command);
    }

    private void env(Map<String, String> env, Path dir) {
        env.keySet()
                .removeIf(k -> k.startsWith("PYTHON")
                        || k.startsWith("PYENV")
                        || k.startsWith("VIRTUAL_ENV")
                        || k.startsWith("OS_"));
        env.put("HOME", dir.toString());
        env.put("PATH", bin + ":/usr/sbin:/sbin:/bin:" + System.getenv().getOrDefault("PATH", ""));
    }
}
