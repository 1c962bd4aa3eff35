package io.etcdworkers.testsupport.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.testsupport.ProcessRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A pod's container while it runs: its end as the kubelet reports it ({@link #awaitExit}), its log
 * ({@link #awaitLog}), and the two ways a kubelet ends it early: {@link #stop()} (SIGTERM, then SIGKILL
 * after the pod's {@code terminationGracePeriodSeconds}: a deleted Job, an eviction) and
 * {@link #kill()} (SIGKILL at once: the grace period run out, a node lost). While it runs, each
 * emptyDir with a {@code sizeLimit} is measured every 2 s, and one past its limit stops the pod as
 * the kubelet's eviction manager would.
 */
public final class RunningPod {
    private static final int MESSAGE_MAX = 4096;
    private static final int LOG_LINES = 80;
    private static final int LOG_MAX = 2048;

    private final Podman podman;
    private final PodTranslation translation;
    private final Process process;
    private final Path stdout;
    private final Path stderr;
    private final ScheduledExecutorService evictions = Executors.newSingleThreadScheduledExecutor();
    private volatile String evicted;
    private PodExit exit;

    private RunningPod(Podman podman, PodTranslation translation, Process process, Path stdout, Path stderr) {
        this.podman = podman;
        this.translation = translation;
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    static RunningPod start(Podman podman, PodTranslation translation) {
        Path stdout = translation.podDir().resolve("stdout");
        Path stderr = translation.podDir().resolve("stderr");
        RunningPod pod =
                new RunningPod(podman, translation, podman.start(translation.argv(), stdout, stderr), stdout, stderr);
        if (!translation.sizeLimits().isEmpty()) {
            pod.evictions.scheduleWithFixedDelay(pod::checkSizeLimits, 2, 2, TimeUnit.SECONDS);
        }
        return pod;
    }

    /** The podman container's name (for {@code podman} commands of a test's own). */
    public String containerName() {
        return translation.containerName();
    }

    /** The pod's grace period: how long {@link #stop()} waits after SIGTERM. */
    public long graceSeconds() {
        return translation.graceSeconds();
    }

    /** The fields of the template that were declared without meaning on one machine, and why. */
    public Map<String, String> fieldsWithoutMeaning() {
        return translation.withoutMeaning();
    }

    /** Waits until the container's log (stderr or stdout) holds {@code text}; fails if it ends first. */
    public RunningPod awaitLog(String text, Duration atMost) {
        Awaitility.await("the pod's log to hold \"" + text + "\"")
                .atMost(atMost)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    if (log().contains(text)) {
                        return true;
                    }
                    if (!process.isAlive()) {
                        throw new AssertionError("the pod ended before its log held \"" + text + "\":\n" + log());
                    }
                    return false;
                });
        return this;
    }

    /** SIGTERM, then SIGKILL once the pod's grace period is over: what a kubelet does to a pod it stops. */
    public void stop() {
        podman("stop", "--time=" + translation.graceSeconds(), translation.containerName());
    }

    /** SIGKILL at once. */
    public void kill() {
        podman("kill", "--signal=KILL", translation.containerName());
    }

    /** Waits for the container's end and reports it as the kubelet would; the container is removed. */
    public synchronized PodExit awaitExit(Duration timeout) {
        if (exit != null) {
            return exit;
        }
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                podman("kill", "--signal=KILL", translation.containerName());
                process.waitFor(30, TimeUnit.SECONDS);
                throw new AssertionError("the pod did not end in " + timeout.toSeconds() + " s:\n" + log());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the pod", e);
        } finally {
            evictions.shutdownNow();
        }
        try {
            JsonNode state = inspect().path("State");
            int code = state.path("ExitCode").asInt();
            boolean oom = state.path("OOMKilled").asBoolean()
                    || (code != 0 && KernelOomLog.killedIn(inspect().path("Id").asText()));
            String reason = oom ? PodExit.OOM_KILLED : code == 0 ? PodExit.COMPLETED : PodExit.ERROR;
            exit = new PodExit(
                    code,
                    reason,
                    terminationMessage(code),
                    read(stdout),
                    read(stderr),
                    instant(state.path("StartedAt").asText()),
                    instant(state.path("FinishedAt").asText()),
                    evicted);
            return exit;
        } finally {
            podman("rm", "--force", translation.containerName());
        }
    }

    /** The message the kubelet puts into the pod's status. */
    private String terminationMessage(int exitCode) {
        byte[] file = readBytes(translation.terminationFile());
        String message = new String(file, 0, Math.min(file.length, MESSAGE_MAX), StandardCharsets.UTF_8);
        if (!message.isEmpty() || !translation.fallbackToLogs() || exitCode == 0) {
            return message;
        }
        // the kubelet's log holds both streams in time order; the worker prints its result last
        List<String> lines = (read(stderr) + read(stdout)).lines().toList();
        String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_LINES), lines.size()));
        byte[] bytes = tail.getBytes(StandardCharsets.UTF_8);
        return bytes.length <= LOG_MAX
                ? tail
                : new String(Arrays.copyOfRange(bytes, bytes.length - LOG_MAX, bytes.length), StandardCharsets.UTF_8);
    }

    private void checkSizeLimits() {
        translation.sizeLimits().forEach((dir, limit) -> {
            long used = KubeletVolumes.usedBytes(dir);
            if (evicted == null && used > Quantities.bytes(limit)) {
                evicted = "emptyDir " + dir.getFileName() + " used " + used + " bytes, over its sizeLimit " + limit;
                podman("stop", "--time=" + translation.graceSeconds(), translation.containerName());
            }
        });
    }

    private JsonNode inspect() {
        ProcessRun run = podman("container", "inspect", translation.containerName());
        try {
            return new ObjectMapper()
                    .readTree(run.requireSuccess(List.of("podman", "inspect")))
                    .path(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ProcessRun podman(String... args) {
        return podman.run(List.of(args));
    }

    private String log() {
        return read(stderr) + read(stdout);
    }

    private static Instant instant(String text) {
        try {
            return Instant.parse(text);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String read(Path file) {
        return new String(readBytes(file), StandardCharsets.UTF_8);
    }

    private static byte[] readBytes(Path file) {
        try {
            return Files.exists(file) ? Files.readAllBytes(file) : new byte[0];
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
