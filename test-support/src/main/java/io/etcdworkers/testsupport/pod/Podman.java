package io.etcdworkers.testsupport.pod;

import io.etcdworkers.testsupport.ProcessRun;
import io.etcdworkers.testsupport.RequiredInCi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The container runtime the pod tests run on: podman, with the image {@code ETCD_WORKERS_IMAGE}
 * names ({@code .ci/image.sh} builds it) and the settings {@code CONTAINERS_CONF} names (else the
 * system property {@code containers.conf}: {@code .ci/containers.conf}, lower ulimits and runc).
 * Where no image is named, {@link #require()} skips the test saying why (fails it in CI); where one
 * is named but podman cannot run a container of it, the test fails.
 */
public final class Podman {
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(120);
    private static Podman checked;
    private static String unavailable;

    private final String image;
    private final Map<String, String> env;

    private Podman(String image, Map<String, String> env) {
        this.image = image;
        this.env = env;
    }

    /** The runtime, checked once per JVM: the image exists and a container of it runs. */
    public static synchronized Podman require() {
        if (checked != null) {
            return checked;
        }
        if (unavailable == null) {
            unavailable = check();
        }
        if (unavailable.isEmpty()) {
            return checked;
        }
        String image = System.getenv("ETCD_WORKERS_IMAGE");
        if (image == null || image.isBlank()) {
            RequiredInCi.missing(unavailable, "the container tests");
        }
        // an image was named, so the container tests are meant to run here: a runtime that cannot run it fails them
        throw new IllegalStateException(unavailable);
    }

    private static String check() {
        String image = System.getenv("ETCD_WORKERS_IMAGE");
        if (image == null || image.isBlank()) {
            return "ETCD_WORKERS_IMAGE is not set: build the image with podman and name it, "
                    + "export ETCD_WORKERS_IMAGE=$(bash .ci/image.sh | tail -1)";
        }
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("HOME", System.getProperty("user.home"));
        String conf = System.getenv("CONTAINERS_CONF");
        if (conf == null || conf.isBlank()) {
            conf = System.getProperty("containers.conf");
        }
        if (conf != null && !conf.isBlank() && Files.isRegularFile(Path.of(conf))) {
            env.put("CONTAINERS_CONF", conf);
        }
        Podman podman = new Podman(image, Map.copyOf(env));
        try {
            ProcessRun exists = podman.run(List.of("image", "exists", image));
            if (exists.exitCode() != 0) {
                return "podman has no image " + image + " (ETCD_WORKERS_IMAGE): build it with bash .ci/image.sh"
                        + (exists.stderr().isBlank()
                                ? ""
                                : ": " + exists.stderr().strip());
            }
            ProcessRun probe = podman.run(List.of("run", "--rm", "--network", "host", "--entrypoint", "true", image));
            if (probe.exitCode() != 0) {
                return "podman cannot run a container of " + image + " (exit " + probe.exitCode() + "): "
                        + probe.stderr().strip() + " (.ci/containers.conf has the settings sandboxes need)";
            }
        } catch (RuntimeException e) {
            return "podman cannot be run: " + e.getMessage() + " (apt-get install podman runc)";
        }
        checked = podman;
        return "";
    }

    /** The image the tests render into the Jobs ({@code --image}). */
    public String image() {
        return image;
    }

    /** Runs {@code podman <args>} to its end. */
    ProcessRun run(List<String> args) {
        return ProcessRun.run(command(args), env, COMMAND_TIMEOUT);
    }

    /** Starts {@code podman <args>} with its output in the files given. */
    Process start(List<String> args, Path stdout, Path stderr) {
        ProcessBuilder builder = new ProcessBuilder(command(args))
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile());
        builder.environment().clear();
        builder.environment().putAll(env);
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start podman " + args, e);
        }
    }

    private static List<String> command(List<String> args) {
        List<String> command = new ArrayList<>();
        command.add("podman");
        command.addAll(args);
        return command;
    }
}
