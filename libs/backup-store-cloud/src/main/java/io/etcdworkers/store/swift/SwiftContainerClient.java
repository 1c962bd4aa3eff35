package io.etcdworkers.store.swift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.store.BoundedInputStream;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.swift.SwiftAuthenticator.Login;
import io.etcdworkers.store.swift.SwiftErrorTranslator.Target;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The few calls of Swift's object API the store makes on one container, each with the token of
 * the current login: a 401 logs in again once and repeats the request (a token expired or was
 * revoked); every other failure, after {@link SwiftHttp}'s retries, is a
 * {@link io.etcdworkers.contract.WorkerException} from {@link SwiftErrorTranslator}.
 * Thread-safe: logins are serialized, requests are not.
 */
final class SwiftContainerClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_ERROR_BODY = 2048;

    private final SwiftStoreConfig config;
    private final SwiftHttp http;
    private final SwiftErrorTranslator errors;
    private final SwiftAuthenticator authenticator;
    private volatile Login login;

    /** A streamed body and the length it must have (-1 when the answer did not say). */
    record Body(InputStream in, long length) {}

    SwiftContainerClient(SwiftStoreConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.http = new SwiftHttp(config.retry());
        this.errors = new SwiftErrorTranslator(this::describe);
        this.authenticator = new SwiftAuthenticator(config, http, errors);
    }

    /** {@code swift container "c" at <account URL>}, or at the login URL before the first login. */
    String describe() {
        Login current = login;
        String at = current != null
                ? current.storageUrl().toString()
                : config.storageUrl()
                        .map(URI::toString)
                        .orElse(config.credentials().auth().authUrl() + " (account from the login)");
        return "swift container \"" + config.container() + "\" at " + at;
    }

    SwiftErrorTranslator errors() {
        return errors;
    }

    SwiftStoreConfig config() {
        return config;
    }

    /** Logs in now (instead of at the first request). */
    void connect() {
        current();
    }

    /** One page of the container's listing, by name after {@code marker}. */
    List<ObjectInfo> listPage(String prefix, String marker, int limit, String action) {
        String query = "format=json&limit=" + limit + (prefix.isEmpty() ? "" : "&prefix=" + SwiftPaths.query(prefix))
                + (marker.isEmpty() ? "" : "&marker=" + SwiftPaths.query(marker));
        HttpResponse<byte[]> response = call(
                action,
                l -> http.request(url(l, null, query)).GET().header("Accept", "application/json"),
                HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() == 204) {
            return List.of();
        }
        if (response.statusCode() != 200) {
            throw errors.status(response.statusCode(), transId(response), action, Target.CONTAINER);
        }
        JsonNode page;
        try {
            page = JSON.readTree(response.body());
        } catch (IOException e) {
            throw errors.fail(
                    io.etcdworkers.contract.ErrorCode.STORE_UNAVAILABLE,
                    action,
                    "the listing is not JSON (" + e.getClass().getSimpleName() + ")");
        }
        List<ObjectInfo> result = new ArrayList<>();
        for (JsonNode entry : page) {
            if (entry.has("name")) {
                result.add(new ObjectInfo(
                        entry.get("name").asText(),
                        Math.max(0, entry.path("bytes").asLong()),
                        listingTime(entry.path("last_modified").asText())));
            }
        }
        return result;
    }

    /** A GET of the object, whole ({@code length} -1) or of {@code length} bytes from {@code offset}. */
    Body get(String key, long offset, long length, String action) {
        String range = length < 0 ? null : "bytes=" + offset + "-" + (offset + length - 1);
        HttpResponse<InputStream> response = call(
                action,
                l -> {
                    HttpRequest.Builder b = http.request(url(l, key, null)).GET();
                    if (range != null) {
                        b.header("Range", range);
                    }
                    return b;
                },
                HttpResponse.BodyHandlers.ofInputStream());
        int status = response.statusCode();
        if (status != 200 && status != 206) {
            SwiftHttp.errorBody(response, MAX_ERROR_BODY);
            throw errors.status(status, transId(response), action, Target.OBJECT);
        }
        InputStream in = response.body();
        if (range != null && status == 200) {
            // The server sent the whole object: cut the range out of it here.
            try {
                in.skipNBytes(offset);
            } catch (IOException e) {
                SwiftHttp.discard(response);
                return new Body(InputStream.nullInputStream(), length);
            }
            return new Body(new BoundedInputStream(in, length), length);
        }
        return new Body(
                in,
                range != null
                        ? length
                        : response.headers().firstValueAsLong("Content-Length").orElse(-1));
    }

    /** The object as a HEAD sees it; empty when it does not exist. */
    Optional<ObjectInfo> head(String key, String action) {
        HttpResponse<byte[]> response = call(
                action,
                l -> http.request(url(l, key, null)).method("HEAD", HttpRequest.BodyPublishers.noBody()),
                HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() == 404) {
            return Optional.empty();
        }
        if (response.statusCode() / 100 != 2) {
            throw errors.status(response.statusCode(), transId(response), action, Target.OBJECT);
        }
        HttpHeaders headers = response.headers();
        return Optional.of(new ObjectInfo(
                key,
                headers.firstValueAsLong("Content-Length").orElse(0),
                headers.firstValue("Last-Modified")
                        .map(SwiftContainerClient::httpTime)
                        .orElse(Instant.EPOCH)));
    }

    /**
     * A PUT of {@code bytes[0, length)} under {@code key} ({@code query}, such as the manifest's,
     * may be null), with its MD5 as ETag so Swift refuses bytes that changed on the way.
     */
    void put(String key, String query, byte[] bytes, int length, String md5Hex, String action) {
        HttpResponse<byte[]> response = call(
                action,
                l -> http.request(url(l, key, query))
                        .header("Content-Type", "application/octet-stream")
                        .header("ETag", md5Hex)
                        .PUT(HttpRequest.BodyPublishers.ofByteArray(bytes, 0, length)),
                HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() / 100 != 2) {
            throw errors.status(response.statusCode(), transId(response), action, Target.CONTAINER);
        }
    }

    /** A DELETE; false when there was nothing to delete. */
    boolean delete(String key, String action) {
        HttpResponse<byte[]> response =
                call(action, l -> http.request(url(l, key, null)).DELETE(), HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() == 404) {
            return false;
        }
        if (response.statusCode() / 100 != 2) {
            throw errors.status(response.statusCode(), transId(response), action, Target.OBJECT);
        }
        return true;
    }

    private <T> HttpResponse<T> call(
            String action, Function<Login, HttpRequest.Builder> build, HttpResponse.BodyHandler<T> handler) {
        Login used = current();
        HttpResponse<T> response = send(
                action,
                () -> build.apply(used).header("X-Auth-Token", used.token()).build(),
                handler,
                used);
        if (response.statusCode() == 401) {
            SwiftHttp.discard(response);
            Login fresh = renew(used);
            response = send(
                    action,
                    () -> build.apply(fresh)
                            .header("X-Auth-Token", fresh.token())
                            .build(),
                    handler,
                    fresh);
        }
        return response;
    }

    private <T> HttpResponse<T> send(
            String action, Supplier<HttpRequest> request, HttpResponse.BodyHandler<T> handler, Login used) {
        try {
            return http.send(request, handler, describe() + ": " + action);
        } catch (IOException e) {
            throw errors.unreachable(e, action, used.storageUrl().toString());
        }
    }

    private synchronized Login current() {
        if (login == null) {
            login = authenticator.login();
        }
        return login;
    }

    /** A new login, unless another thread already replaced {@code stale}. */
    private synchronized Login renew(Login stale) {
        if (login == stale) {
            login = authenticator.login();
        }
        return login;
    }

    private URI url(Login l, String key, String query) {
        String base = l.storageUrl().toString();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        String path =
                base + "/" + SwiftPaths.path(config.container()) + (key == null ? "" : "/" + SwiftPaths.path(key));
        return URI.create(query == null ? path : path + "?" + query);
    }

    private static String transId(HttpResponse<?> response) {
        return response.headers().firstValue("X-Trans-Id").orElse(null);
    }

    /** A listing's {@code last_modified}: UTC without a zone, with microseconds. */
    static Instant listingTime(String value) {
        try {
            return LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            return Instant.EPOCH;
        }
    }

    private static Instant httpTime(String value) {
        try {
            return ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME)
                    .toInstant();
        } catch (DateTimeParseException e) {
            return Instant.EPOCH;
        }
    }

    /** Percent-encoding of container, key and query values (UTF-8; a key keeps its slashes). */
    static final class SwiftPaths {
        private static final String UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";

        private SwiftPaths() {}

        static String path(String value) {
            return encode(value, true);
        }

        static String query(String value) {
            return encode(value, false);
        }

        private static String encode(String value, boolean keepSlash) {
            StringBuilder out = new StringBuilder(value.length() + 16);
            for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
                char c = (char) (b & 0xff);
                if (UNRESERVED.indexOf(c) >= 0 || keepSlash && c == '/') {
                    out.append(c);
                } else {
                    out.append('%')
                            .append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
                            .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
                }
            }
            return out.toString();
        }
    }
}
