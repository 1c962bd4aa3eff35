package io.etcdworkers.store.swift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.contract.ErrorCode;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs in and returns a token and the account URL.
 *
 * <p>Keystone v3, as gophercloud does it for etcdbrctl: an auth URL ending in {@code /v3} is the
 * identity endpoint itself; any other is asked for its versions ({@code GET}, 200 or 300) and its
 * stable {@code v3} link is taken. The token comes from {@code POST <base>/v3/auth/tokens} with
 * {@link KeystoneTokenRequest}'s body ({@code X-Subject-Token}); the account URL from its catalog
 * ({@link KeystoneCatalog}). Tempauth v1: {@code GET <authURL>} with {@code X-Auth-User} and
 * {@code X-Auth-Key}, answered with {@code X-Auth-Token} and {@code X-Storage-Url}. Either way
 * {@code --store-endpoint-override} replaces the account URL.
 */
final class SwiftAuthenticator {
    private static final Logger LOG = LoggerFactory.getLogger(SwiftAuthenticator.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern VERSION = Pattern.compile("v[0-9.]+/?");
    private static final int MAX_BODY = 1 << 20;

    /** A token and the account it is for. */
    record Login(String token, URI storageUrl) {
        @Override
        public String toString() {
            return "Login[token=***, storageUrl=" + storageUrl + "]";
        }
    }

    private final SwiftStoreConfig config;
    private final SwiftHttp http;
    private final SwiftErrorTranslator errors;
    private URI tokensUrl;

    SwiftAuthenticator(SwiftStoreConfig config, SwiftHttp http, SwiftErrorTranslator errors) {
        this.config = Objects.requireNonNull(config, "config");
        this.http = Objects.requireNonNull(http, "http");
        this.errors = Objects.requireNonNull(errors, "errors");
    }

    /** A new token; the caller serializes calls. */
    Login login() {
        SwiftCredentials credentials = config.credentials();
        return credentials.method() == SwiftCredentials.Method.TEMPAUTH_V1
                ? tempauth(credentials)
                : keystone(credentials);
    }

    private Login tempauth(SwiftCredentials credentials) {
        String authUrl = credentials.auth().authUrl();
        String action = "logging in to tempauth as " + credentials.tempauthUser();
        HttpResponse<byte[]> response = send(
                () -> http.request(URI.create(authUrl))
                        .GET()
                        .header("X-Auth-User", credentials.tempauthUser())
                        .header("X-Auth-Key", credentials.auth().password())
                        .build(),
                action,
                authUrl);
        if (response.statusCode() / 100 != 2) {
            throw errors.login(response.statusCode(), "", authUrl, action);
        }
        String token = response.headers()
                .firstValue("X-Auth-Token")
                .or(() -> response.headers().firstValue("X-Storage-Token"))
                .orElse("");
        Optional<String> storage = response.headers().firstValue("X-Storage-Url");
        if (token.isEmpty() || storage.isEmpty() && config.storageUrl().isEmpty()) {
            throw errors.fail(
                    ErrorCode.UNEXPECTED, action, authUrl + " answered without X-Auth-Token or X-Storage-Url");
        }
        return new Login(token, config.storageUrl().orElseGet(() -> url(storage.get(), action)));
    }

    private Login keystone(SwiftCredentials credentials) {
        String authUrl = credentials.auth().authUrl();
        String action = "logging in to Keystone as " + credentials.describe();
        URI tokens = tokensUrl(authUrl, action);
        byte[] body;
        try {
            body = JSON.writeValueAsBytes(KeystoneTokenRequest.body(credentials.auth(), credentials.source()));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a token request", e);
        }
        HttpResponse<byte[]> response = send(
                () -> http.request(tokens)
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                action,
                tokens.toString());
        JsonNode answer = parse(response.body());
        if (response.statusCode() / 100 != 2) {
            throw errors.login(
                    response.statusCode(), answer.path("error").path("message").asText(""), authUrl, action);
        }
        String token = response.headers().firstValue("X-Subject-Token").orElse("");
        if (token.isEmpty()) {
            throw errors.fail(ErrorCode.UNEXPECTED, action, tokens + " answered without X-Subject-Token");
        }
        if (config.storageUrl().isPresent()) {
            return new Login(token, config.storageUrl().get());
        }
        KeystoneCatalog.Endpoint endpoint = KeystoneCatalog.objectStore(answer.get("token"), config.region(), authUrl);
        credentials
                .secretRegion()
                .filter(r -> !r.equals(endpoint.region()))
                .ifPresent(r -> LOG.warn(
                        "the Swift credentials {} name region {}, but the account is in {}: etcdbrctl ignores the Secret's "
                                + "region as well and takes OS_REGION_NAME (or the catalog's first public endpoint), so its "
                                + "backups are there; set OS_REGION_NAME to choose",
                        credentials.source(),
                        r,
                        endpoint.region().isEmpty() ? "no region" : endpoint.region()));
        return new Login(token, url(endpoint.url(), action));
    }

    /** {@code <base>/v3/auth/tokens}, found once (a version-less auth URL costs one request). */
    private URI tokensUrl(String authUrl, String action) {
        if (tokensUrl != null) {
            return tokensUrl;
        }
        String identity = withSlash(authUrl.strip());
        String v3;
        if (identity.toLowerCase(Locale.ROOT).endsWith("/v3/")) {
            v3 = identity;
        } else {
            String base = baseEndpoint(identity);
            HttpResponse<byte[]> response = send(
                    () -> http.request(URI.create(base))
                            .GET()
                            .header("Accept", "application/json")
                            .build(),
                    "asking " + base + " for its versions",
                    base);
            if (response.statusCode() != 200 && response.statusCode() != 300) {
                throw errors.login(response.statusCode(), "", authUrl, action);
            }
            v3 = chooseV3(parse(response.body()), identity)
                    .orElseThrow(() -> errors.fail(
                            ErrorCode.USAGE,
                            action,
                            base + " offers no stable Keystone v3: give its v3 URL as authURL"));
        }
        tokensUrl = url(withSlash(baseEndpoint(v3)) + "v3/auth/tokens", action);
        return tokensUrl;
    }

    /** gophercloud's {@code ChooseVersion} for v3 alone: the link equal to the auth URL, else a current/stable/supported one. */
    static Optional<String> chooseV3(JsonNode versions, String identity) {
        String chosen = null;
        for (JsonNode value : versions.path("versions").path("values")) {
            if (!value.path("id").asText().contains("v3")) {
                continue;
            }
            String href = "";
            for (JsonNode link : value.path("links")) {
                if ("self".equals(link.path("rel").asText())) {
                    href = withSlash(link.path("href").asText());
                }
            }
            if (href.equals(identity) && !href.isEmpty()) {
                return Optional.of(href);
            }
            String status = value.path("status").asText().toLowerCase(Locale.ROOT);
            if (chosen == null
                    && !href.isEmpty()
                    && (status.equals("current") || status.equals("supported") || status.equals("stable"))) {
                chosen = href;
            }
        }
        return Optional.ofNullable(chosen);
    }

    /** gophercloud's {@code BaseEndpoint}: the URL without query and without its path from the first version on. */
    static String baseEndpoint(String url) {
        URI uri = URI.create(url);
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        Matcher m = VERSION.matcher(path);
        if (m.find()) {
            path = path.substring(0, m.start());
        }
        return uri.getScheme() + "://" + uri.getRawAuthority() + path;
    }

    private HttpResponse<byte[]> send(Supplier<HttpRequest> request, String action, String where) {
        try {
            return http.send(
                    request,
                    info -> HttpResponse.BodySubscribers.mapping(
                            HttpResponse.BodySubscribers.ofByteArray(), b -> b.length > MAX_BODY ? new byte[0] : b),
                    action);
        } catch (IOException e) {
            throw errors.unreachable(e, action, where);
        }
    }

    private static JsonNode parse(byte[] body) {
        try {
            JsonNode node = body == null || body.length == 0 ? null : JSON.readTree(body);
            return node == null ? JSON.createObjectNode() : node;
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }

    private URI url(String value, String action) {
        try {
            URI uri = new URI(value);
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new URISyntaxException(value, "no scheme or host");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw errors.fail(
                    ErrorCode.UNEXPECTED, action, "the login answered an account URL that is not one: " + value);
        }
    }

    private static String withSlash(String url) {
        return url.endsWith("/") ? url : url + "/";
    }
}
