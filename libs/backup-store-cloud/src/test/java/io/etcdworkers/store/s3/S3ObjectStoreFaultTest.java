package io.etcdworkers.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/**
 * Failures a real S3 server will not produce on demand, from a scripted HTTP server on
 * loopback: a body cut short, a store that keeps answering 503, one that is not there.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class S3ObjectStoreFaultTest {
    private static final S3StoreConfig.Retry FAST_RETRY =
            new S3StoreConfig.Retry(3, Duration.ofMillis(1), Duration.ofMillis(10));

    private final AtomicInteger requests = new AtomicInteger();
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aBodyCutShortIsATruncatedObject() throws IOException {
        URI endpoint = serve(exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "application/octet-stream");
            exchange.sendResponseHeaders(200, 100);
            exchange.getResponseBody().write(new byte[50]);
            exchange.getResponseBody().flush();
            // Closing with 50 of 100 bytes sent makes the JDK server drop the connection.
            exchange.close();
        });
        try (S3ObjectStore store = store(endpoint)) {
            InputStream in = store.open("p/v2/Full-1");
            assertThatThrownBy(in::readAllBytes).isInstanceOfSatisfying(WorkerException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.TRUNCATED_OBJECT);
                assertThat(e.getMessage()).contains("\"p/v2/Full-1\"", "50 of 100 bytes", "\"bucket\"");
            });
            in.close();
        }
    }

    @Test
    void aStoreThatKeepsFailingIsUnavailableAfterTheConfiguredAttempts() {
        URI endpoint = serve(exchange -> respond(exchange, 503, "SlowDown"));
        try (S3ObjectStore store = store(endpoint)) {
            assertThatThrownBy(() -> store.list("p/")).isInstanceOfSatisfying(WorkerException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
                assertThat(e.getMessage()).contains("HTTP 503", "SlowDown", endpoint.toString());
            });
        }
        assertThat(requests).hasValue(FAST_RETRY.maxAttempts());
    }

    @Test
    void accessDeniedIsNotRetried() {
        URI endpoint = serve(exchange -> respond(exchange, 403, "AccessDenied"));
        try (S3ObjectStore store = store(endpoint)) {
            assertThatThrownBy(() -> store.list("p/"))
                    .isInstanceOfSatisfying(
                            WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_NOT_FOUND));
        }
        assertThat(requests).hasValue(1);
    }

    @Test
    void aStoreThatIsNotThereIsUnavailable() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        try (S3ObjectStore store = store(URI.create("http://127.0.0.1:" + closedPort))) {
            assertThatThrownBy(() -> store.list("p/")).isInstanceOfSatisfying(WorkerException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
                assertThat(e.getMessage()).contains("could not be reached", "127.0.0.1:" + closedPort);
            });
        }
    }

    private URI serve(HttpHandler handler) {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            handler.handle(exchange);
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private static void respond(HttpExchange exchange, int status, String code) throws IOException {
        byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code
                        + "</Code><Message>scripted</Message><RequestId>R</RequestId></Error>")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/xml");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    private static S3ObjectStore store(URI endpoint) {
        return new S3ObjectStore(S3StoreConfig.of(
                        "bucket",
                        Region.US_EAST_1,
                        Optional.of(endpoint),
                        true,
                        StaticCredentialsProvider.create(AwsBasicCredentials.create("id", "secret")))
                .withRetry(FAST_RETRY));
    }
}
