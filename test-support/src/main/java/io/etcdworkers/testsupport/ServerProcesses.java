package io.etcdworkers.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What the servers the tests start as child processes (S3Proxy, Azurite, etcd) have in common:
 * a free port on 127.0.0.1, waiting until the server answers, its log's last lines for an error
 * message, and stopping it with everything it started.
 */
final class ServerProcesses {
    private static final int LOG_TAIL_LINES = 40;

    private ServerProcesses() {}

    /** An HTTP answer: its status, and its body when the status is below 400. */
    record HttpAnswer(int status, String body) {}

    /**
     * A port nobody listens on right now on 127.0.0.1 (not {@code getLoopbackAddress()}: with
     * IPv6 preferred that is ::1, and a port free there says nothing about 127.0.0.1).
     */
    static int freeLoopbackPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A GET of {@code url}; empty while nothing answers there. */
    static Optional<HttpAnswer> get(URI url) {
        try {
            HttpURLConnection connection = (HttpURLConnection) url.toURL().openConnection();
            connection.setConnectTimeout(500);
            connection.setReadTimeout(2000);
            try {
                int status = connection.getResponseCode();
                if (status >= 400) {
                    return Optional.of(new HttpAnswer(status, ""));
                }
                try (InputStream in = connection.getInputStream()) {
                    return Optional.of(new HttpAnswer(status, new String(in.readAllBytes(), StandardCharsets.UTF_8)));
                }
            } finally {
                connection.disconnect();
            }
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Waits until {@code up} holds; fails with the tail of {@code log} when the process exits
     * first or the timeout passes.
     */
    static void awaitUp(String what, Process process, Path log, Duration timeout, BooleanSupplier up) {
        try {
            await(what).atMost(timeout).pollInterval(Duration.ofMillis(100)).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException(what + " exited with " + process.exitValue()
                            + " before answering; log:\n" + logTail(log));
                }
                return up.getAsBoolean();
            });
        } catch (IllegalStateException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IllegalStateException(what + " did not answer; log:\n" + logTail(log), e);
        }
    }

    /** SIGTERM to the process and its descendants, SIGKILL to those still there after {@code timeout}. */
    static void killTree(Process process, Duration timeout) {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        tree.forEach(ProcessHandle::destroy);
        for (ProcessHandle handle : tree) {
            try {
                handle.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                // Did not stop on SIGTERM in time (or we were interrupted): make sure it does.
                handle.destroyForcibly();
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** The last lines of a server's log, for an error message. */
    static String logTail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
