package io.etcdworkers.testsupport.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;

/**
 * How a pod's container ended, as a kubelet reports it in the pod's status
 * ({@code status.containerStatuses[].state.terminated}).
 *
 * @param exitCode           the container's exit code (137 for a SIGKILL, the kernel's OOM kill included)
 * @param reason             the kubelet's reason: {@code Completed} (exit 0), {@code OOMKilled} (the kernel
 *                           killed a process of the container at its memory limit), {@code Error} otherwise
 * @param terminationMessage the message as the kubelet reads it: the file at {@code terminationMessagePath}
 *                           (at most 4096 bytes), or with {@code FallbackToLogsOnError} and a failed container
 *                           whose file is empty, the log's last 80 lines (at most 2048 bytes)
 * @param stdout             what the container wrote on stdout
 * @param stderr             what it wrote on stderr
 * @param startedAt          when the container started
 * @param finishedAt         when it ended
 * @param evicted            why the kubelet would have evicted the pod (an emptyDir past its
 *                           {@code sizeLimit}; the container was then stopped), or null
 */
public record PodExit(
        int exitCode,
        String reason,
        String terminationMessage,
        String stdout,
        String stderr,
        Instant startedAt,
        Instant finishedAt,
        String evicted) {
    public static final String COMPLETED = "Completed";
    public static final String OOM_KILLED = "OOMKilled";
    public static final String ERROR = "Error";

    public boolean oomKilled() {
        return OOM_KILLED.equals(reason);
    }

    /** The worker's result JSON: the termination message (what the launcher reads). */
    public JsonNode result() {
        try {
            return new ObjectMapper().readTree(terminationMessage);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "the termination message is not a result JSON: " + terminationMessage + "\nstderr:\n" + stderr, e);
        }
    }

    /** Everything the container printed, for assertion messages. */
    public String describe() {
        return "exit " + exitCode + " (" + reason + ")" + (evicted == null ? "" : ", evicted: " + evicted)
                + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
    }
}
