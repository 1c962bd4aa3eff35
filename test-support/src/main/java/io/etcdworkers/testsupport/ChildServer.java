package io.etcdworkers.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
 * A server the tests run as a child process (S3Proxy, Azurite, etcd): its output in a log file,
 * awaited until it answers, stopped with everything it started; a shutdown hook stops it if the
 * test JVM ends first. And what such servers need around that: a free 127.0.0.1 port, an HTTP
 * probe, the log's last lines for an error message.
 */
final class ChildServer implements AutoCloseable {
    private static final int LOG_TAIL_LINES = 40;

    private final Process process;
    private final Duration stopTimeout;
    private final Thread shutdownHook;

    /** The child's pid. */
    long pid() {
        return process.pid();
    }

    /** An HTTP answer: its status, and its body when the status is below 400. */
    record HttpAnswer(int status, String body) {}

    private ChildServer(Process process, Duration stopTimeout) {
        this.process = process;
        this.stopTimeout = stopTimeout;
        this.shutdownHook = new Thread(this::stop, "child-server-shutdown-" + process.pid());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts {@code builder} with its stdout and stderr in {@code log} and waits until {@code up}
     * holds; when the process exits first or {@code startTimeout} passes, stops it and fails with
     * the tail of its log.
     *
     * @param what names the server in messages ({@code "S3Proxy at http://127.0.0.1:PORT"})
     * @param stopTimeout how long SIGTERM may take before SIGKILL
     */
    static ChildServer start(
            String what,
            ProcessBuilder builder,
            Path log,
            Duration startTimeout,
            Duration stopTimeout,
            BooleanSupplier up) {
        ChildServer server = launch(builder, log, stopTimeout);
        server.awaitUp(what, log, startTimeout, up);
        return server;
    }

    /**
     * Starts {@code builder} with its stdout and stderr in {@code log}, without waiting: for servers
     * that start side by side, each then awaited with {@link #awaitUp}.
     */
    static ChildServer launch(ProcessBuilder builder, Path log, Duration stopTimeout) {
        try {
            Files.createDirectories(log.getParent());
            return new ChildServer(
                    builder.redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start(),
                    stopTimeout);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + builder.command(), e);
        }
    }

    /**
     * Waits until {@code up} holds; when the process exits first or {@code timeout} passes, stops
     * it and fails with the tail of its log.
     */
    void awaitUp(String what, Path log, Duration timeout, BooleanSupplier up) {
        try {
            await(what).atMost(timeout).pollInterval(Duration.ofMillis(100)).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException(
                            what + " exited with " + process.exitValue() + " before answering; log:\n" + logTail(log));
                }
                return up.getAsBoolean();
            });
        } catch (RuntimeException e) {
            close();
            throw e instanceof IllegalStateException ise
                    ? ise
                    : new IllegalStateException(what + " did not answer; log:\n" + logTail(log), e);
        }
    }

    /** Stops the server and what it started; idempotent. */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down and runs the hook itself.
        }
    }

    /** SIGTERM to the process and its descendants, SIGKILL to those still there after the stop timeout. */
    private void stop() {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        tree.forEach(ProcessHandle::destroy);
        for (ProcessHandle handle : tree) {
            try {
                handle.onExit().get(stopTimeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                // Did not stop on SIGTERM in time (or we were interrupted): make sure it does.
                handle.destroyForcibly();
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

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

    /** Whether something accepts TCP connections on 127.0.0.1:{@code port}. */
    static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port), 500);
            return true;
        } catch (IOException e) {
            return false;
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
