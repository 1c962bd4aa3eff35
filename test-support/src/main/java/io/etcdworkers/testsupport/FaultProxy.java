package io.etcdworkers.testsupport;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * An HTTP/1.1 proxy on 127.0.0.1 in front of a real server (S3Proxy) that, per request, answers
 * an error status, delays the answer, resets the connection, or forwards the answer but cuts its
 * body short (the Content-Length kept, the connection closed early). A test arms faults with
 * {@link #inject}; a request matched by no armed fault is forwarded unchanged.
 *
 * <pre>{@code
 * try (FaultProxy proxy = FaultProxy.start(s3.endpoint())) {
 *     proxy.inject(FaultProxy.Fault.status(503), "GET", ".*Incr-.*", 2);   // the next 2 delta reads
 *     ... --store-endpoint-override=proxy.endpoint() ...
 *     proxy.faulted()   // what was done to which request
 * }
 * }</pre>
 *
 * <p>Each request is forwarded on a fresh upstream connection; bodies are buffered (test objects
 * are small). {@code Expect: 100-continue} is answered by the proxy itself.
 */
public final class FaultProxy implements AutoCloseable {
    /** Arm a fault for every matching request from now on. */
    public static final int ALWAYS = Integer.MAX_VALUE;

    /** What to do to a request. */
    public record Fault(String kind, int status, Duration delay) {
        /** Answer {@code status} with an S3 error body, without asking the server. */
        public static Fault status(int status) {
            return new Fault("status " + status, status, Duration.ZERO);
        }

        /** Forward, then hold the answer back this long. */
        public static Fault delay(Duration delay) {
            return new Fault("delay " + delay.toMillis() + "ms", 0, delay);
        }

        /** Read the request, then reset the connection (RST) without answering. */
        public static Fault reset() {
            return new Fault("reset", 0, Duration.ZERO);
        }

        /** Forward the answer's head unchanged but only half its body, then close. */
        public static Fault cutBody() {
            return new Fault("cut body", 0, Duration.ZERO);
        }
    }

    /** One request that got a fault. */
    public record Faulted(String method, String path, String fault) {}

    private static final class Rule {
        final Fault fault;
        final Pattern method;
        final Pattern path;
        int remaining;

        Rule(Fault fault, String method, String path, int times) {
            this.fault = fault;
            this.method = Pattern.compile(method);
            this.path = Pattern.compile(path);
            this.remaining = times;
        }
    }

    private final ServerSocket server;
    private final URI upstream;
    private final List<Rule> rules = new ArrayList<>();
    private final List<Faulted> faulted = new CopyOnWriteArrayList<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    /** Released by {@link #close}: a held-back answer ends there, not after its whole delay. */
    private final CountDownLatch closed = new CountDownLatch(1);

    private FaultProxy(ServerSocket server, URI upstream) {
        this.server = server;
        this.upstream = upstream;
    }

    /** Listens on a free 127.0.0.1 port and forwards to {@code upstream} ({@code http://127.0.0.1:PORT}). */
    public static FaultProxy start(URI upstream) {
        try {
            ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            FaultProxy proxy = new FaultProxy(server, upstream);
            Thread accept = new Thread(proxy::acceptLoop, "fault-proxy-accept");
            accept.setDaemon(true);
            accept.start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    /**
     * Arms {@code fault} for the next {@code times} requests ({@link #ALWAYS}: all) whose method
     * and path (with query) match the regular expressions. Earlier-armed faults win.
     */
    public synchronized FaultProxy inject(Fault fault, String methodRegex, String pathRegex, int times) {
        rules.add(new Rule(fault, methodRegex, pathRegex, times));
        return this;
    }

    /** The next {@code times} requests of any kind. */
    public FaultProxy injectNext(Fault fault, int times) {
        return inject(fault, ".*", ".*", times);
    }

    /** Disarms every fault. */
    public synchronized void clear() {
        rules.clear();
    }

    /** The requests that got a fault, in order. */
    public List<Faulted> faulted() {
        return List.copyOf(faulted);
    }

    /** Every request seen, as {@code METHOD path}. */
    public List<String> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        closed.countDown();
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        for (Socket socket : open) {
            closeQuietly(socket);
        }
    }

    private synchronized Fault pick(String method, String path) {
        for (Rule rule : rules) {
            if (rule.remaining > 0
                    && rule.method.matcher(method).matches()
                    && rule.path.matcher(path).matches()) {
                if (rule.remaining != ALWAYS) {
                    rule.remaining--;
                }
                return rule.fault;
            }
        }
        return null;
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                open.add(client);
                Thread t = new Thread(() -> serve(client), "fault-proxy-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            InputStream in = new BufferedInputStream(client.getInputStream());
            OutputStream out = client.getOutputStream();
            while (true) {
                HttpFraming.Head request = HttpFraming.Head.read(in);
                if (request == null) {
                    return;
                }
                String[] line = request.first.split(" ");
                String method = line[0];
                String path = line.length > 1 ? line[1] : "";
                requests.add(method + " " + path);
                if ("100-continue".equalsIgnoreCase(request.header("expect"))) {
                    out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                }
                byte[] body = HttpFraming.readBody(in, request, false);
                Fault fault = pick(method, path);
                if (fault != null) {
                    faulted.add(new Faulted(method, path, fault.kind()));
                }
                if (fault != null && fault.kind().equals("reset")) {
                    client.setSoLinger(true, 0);
                    return;
                }
                if (fault != null && fault.status() > 0) {
                    byte[] error = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
                                    + (fault.status() == 503 ? "SlowDown" : "InternalError")
                                    + "</Code><Message>injected by FaultProxy</Message><RequestId>FP</RequestId></Error>")
                            .getBytes(StandardCharsets.UTF_8);
                    out.write(("HTTP/1.1 " + fault.status() + " Injected\r\nContent-Type: application/xml\r\n"
                                    + "Content-Length: " + error.length + "\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
                    out.write(error);
                    out.flush();
                    continue;
                }
                HttpFraming.Head response;
                byte[] responseBody;
                try (Socket up = new Socket(upstream.getHost(), upstream.getPort())) {
                    OutputStream upOut = up.getOutputStream();
                    upOut.write(request.bytesWithout("expect"));
                    upOut.write(body);
                    upOut.flush();
                    InputStream upIn = new BufferedInputStream(up.getInputStream());
                    response = HttpFraming.Head.read(upIn);
                    if (response == null) {
                        return;
                    }
                    responseBody = method.equals("HEAD") ? new byte[0] : HttpFraming.readBody(upIn, response, true);
                }
                if (fault != null && !fault.delay().isZero()) {
                    // the injected slowness itself (not a test waiting for a condition)
                    if (closed.await(fault.delay().toMillis(), TimeUnit.MILLISECONDS)) {
                        return;
                    }
                }
                out.write(response.bytesWithout("connection"));
                if (fault != null && fault.kind().equals("cut body")) {
                    out.write(responseBody, 0, responseBody.length / 2);
                    out.flush();
                    return;
                }
                out.write(responseBody);
                out.flush();
                if (response.header("content-length") == null
                        && response.header("transfer-encoding") == null
                        && !method.equals("HEAD")
                        && HttpFraming.hasBody(response)) {
                    return; // delimited by close
                }
            }
        } catch (IOException | InterruptedException e) {
            // the client or the proxy went away
        } finally {
            open.remove(client);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
