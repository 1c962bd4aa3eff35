package io.etcdworkers.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The tests' own client of one Swift account (plain HTTP with a token), independent of the
 * store under test: it puts fixtures in place and looks at what a worker left.
 */
public final class SwiftClient {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final Supplier<String> login;
    private final URI account;
    private String token;

    SwiftClient(Supplier<String> login, URI account) {
        this.login = login;
        this.account = account;
    }

    public void createContainer(String container) {
        send("PUT", container, null, null, HttpRequest.BodyPublishers.noBody(), 201, 202);
    }

    public void put(String container, String key, byte[] bytes) {
        send("PUT", container, key, null, HttpRequest.BodyPublishers.ofByteArray(bytes), 201);
    }

    /**
     * Writes {@code content} as etcdbrctl's Swift store writes a snapshot: segments
     * {@code <key>/0000000001}, ... of {@code segmentSize} bytes, then an empty manifest whose
     * {@code X-Object-Manifest} is {@code <container>/<key>} (a dynamic large object).
     */
    public void putDynamicLargeObject(String container, String key, byte[] content, int segmentSize) {
        for (int i = 0, part = 1; i < content.length; i += segmentSize, part++) {
            put(
                    container,
                    key + "/" + String.format("%010d", part),
                    Arrays.copyOfRange(content, i, Math.min(content.length, i + segmentSize)));
        }
        send(
                "PUT",
                container,
                key,
                new String[] {"X-Object-Manifest", container + "/" + key},
                HttpRequest.BodyPublishers.noBody(),
                201);
    }

    public byte[] get(String container, String key) {
        return send("GET", container, key, null, HttpRequest.BodyPublishers.noBody(), 200)
                .body();
    }

    /** The object's size, or empty when it does not exist. */
    public Optional<Long> head(String container, String key) {
        HttpResponse<byte[]> response =
                send("HEAD", container, key, null, HttpRequest.BodyPublishers.noBody(), 200, 204, 404);
        return response.statusCode() == 404
                ? Optional.empty()
                : Optional.of(
                        response.headers().firstValueAsLong("Content-Length").orElse(0));
    }

    public void delete(String container, String key) {
        send("DELETE", container, key, null, HttpRequest.BodyPublishers.noBody(), 204, 404);
    }

    /** Every object name under {@code prefix}, in Swift's order. */
    public List<String> keys(String container, String prefix) {
        return new ArrayList<>(listing(container, prefix).keySet());
    }

    /**
     * Every object under {@code prefix} with the size Swift lists for it (a dynamic large object's
     * manifest: 0), in Swift's order.
     */
    public Map<String, Long> listing(String container, String prefix) {
        Map<String, Long> objects = new LinkedHashMap<>();
        String marker = "";
        while (true) {
            String query = "?format=json&prefix=" + URLEncoder.encode(prefix, StandardCharsets.UTF_8) + "&marker="
                    + URLEncoder.encode(marker, StandardCharsets.UTF_8);
            HttpResponse<byte[]> response =
                    send("GET", container + query, null, null, HttpRequest.BodyPublishers.noBody(), 200, 204);
            JsonNode page;
            try {
                page = response.statusCode() == 204 ? JSON.createArrayNode() : JSON.readTree(response.body());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (page.isEmpty()) {
                return objects;
            }
            page.forEach(entry ->
                    objects.put(entry.path("name").asText(), entry.path("bytes").asLong()));
            marker = page.get(page.size() - 1).path("name").asText();
        }
    }

    /** Uploads every object of a Local bucket's {@code v2/} as {@code <prefix>/v2/<name>}. */
    public void upload(String container, String prefix, Path localBucket) {
        try (Stream<Path> files = Files.list(localBucket.resolve("v2"))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                put(container, prefix + "/v2/" + file.getFileName(), Files.readAllBytes(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private synchronized String token(boolean fresh) {
        if (token == null || fresh) {
            token = login.get();
        }
        return token;
    }

    private HttpResponse<byte[]> send(
            String method,
            String container,
            String key,
            String[] header,
            HttpRequest.BodyPublisher body,
            int... expected) {
        String url = account + "/" + container + (key == null ? "" : "/" + key);
        for (int attempt = 1; ; attempt++) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(60))
                    .header("X-Auth-Token", token(attempt > 1))
                    .method(method, body);
            if (header != null) {
                request.header(header[0], header[1]);
            }
            try {
                HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
                if (response.statusCode() == 401 && attempt == 1) {
                    continue;
                }
                if (Arrays.stream(expected).noneMatch(s -> s == response.statusCode())) {
                    throw new IllegalStateException("Swift: " + method + " " + url + " answered "
                            + response.statusCode() + ": " + new String(response.body(), StandardCharsets.UTF_8));
                }
                return response;
            } catch (IOException e) {
                throw new UncheckedIOException(method + " " + url, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }
}
