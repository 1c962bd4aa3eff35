package io.etcdworkers.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Keystone's v3 API as the tests' Swift needs it set up: a token, a project with a member user,
 * the region and the {@code object-store} endpoint, and application credentials.
 */
final class KeystoneSetup {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI v3;

    /** A token and the project it is scoped to. */
    record Token(String id, String projectId, String userId) {}

    /** @param v3 {@code http://127.0.0.1:PORT/v3} */
    KeystoneSetup(URI v3) {
        this.v3 = v3;
    }

    /** A password login of {@code user} scoped to {@code project}, both in the default domain. */
    Token login(String user, String password, String project) {
        ObjectNode body = JSON.createObjectNode();
        ObjectNode auth = body.putObject("auth");
        ObjectNode identity = auth.putObject("identity");
        identity.putArray("methods").add("password");
        ObjectNode u = identity.putObject("password")
                .putObject("user")
                .put("name", user)
                .put("password", password);
        u.putObject("domain").put("id", "default");
        ObjectNode p = auth.putObject("scope").putObject("project").put("name", project);
        p.putObject("domain").put("id", "default");
        HttpResponse<String> response = send(null, "POST", "/auth/tokens", body, 201);
        JsonNode token = read(response).get("token");
        return new Token(
                response.headers().firstValue("X-Subject-Token").orElseThrow(),
                token.path("project").path("id").asText(),
                token.path("user").path("id").asText());
    }

    /**
     * Creates {@code project} and {@code user} (with {@code member} on it), the region, Keystone's own
     * public endpoint and the public {@code object-store} endpoint {@code <proxy>/v1/AUTH_%(project_id)s};
     * returns the project's id.
     */
    String createProjectAndEndpoint(
            Token admin, String project, String user, String password, String region, URI proxy) {
        String projectId = id(
                send(
                        admin.id(),
                        "POST",
                        "/projects",
                        object(
                                "project",
                                JSON.createObjectNode().put("name", project).put("domain_id", "default")),
                        201),
                "project");
        String userId = id(
                send(
                        admin.id(),
                        "POST",
                        "/users",
                        object(
                                "user",
                                JSON.createObjectNode()
                                        .put("name", user)
                                        .put("password", password)
                                        .put("domain_id", "default")
                                        .put("default_project_id", projectId)),
                        201),
                "user");
        JsonNode roles =
                read(send(admin.id(), "GET", "/roles?name=member", null, 200)).path("roles");
        String memberRole = roles.path(0).path("id").asText();
        send(admin.id(), "PUT", "/projects/" + projectId + "/users/" + userId + "/roles/" + memberRole, null, 204);
        send(
                admin.id(),
                "POST",
                "/regions",
                object("region", JSON.createObjectNode().put("id", region)),
                201);
        // The proxy's authtoken finds Keystone in the catalog too.
        String identityId = id(
                send(
                        admin.id(),
                        "POST",
                        "/services",
                        object(
                                "service",
                                JSON.createObjectNode().put("type", "identity").put("name", "keystone")),
                        201),
                "service");
        send(
                admin.id(),
                "POST",
                "/endpoints",
                object(
                        "endpoint",
                        JSON.createObjectNode()
                                .put("service_id", identityId)
                                .put("interface", "public")
                                .put("region_id", region)
                                .put("url", v3.toString())),
                201);
        String serviceId = id(
                send(
                        admin.id(),
                        "POST",
                        "/services",
                        object(
                                "service",
                                JSON.createObjectNode()
                                        .put("type", "object-store")
                                        .put("name", "swift")),
                        201),
                "service");
        send(
                admin.id(),
                "POST",
                "/endpoints",
                object(
                        "endpoint",
                        JSON.createObjectNode()
                                .put("service_id", serviceId)
                                .put("interface", "public")
                                .put("region_id", region)
                                .put("url", proxy + "/v1/AUTH_%(project_id)s")),
                201);
        return projectId;
    }

    /** A new application credential of the token's user, for the token's project: its id and secret. */
    String[] createApplicationCredential(Token user, String name) {
        JsonNode created = read(send(
                        user.id(),
                        "POST",
                        "/users/" + user.userId() + "/application_credentials",
                        object("application_credential", JSON.createObjectNode().put("name", name)),
                        201))
                .path("application_credential");
        return new String[] {created.path("id").asText(), created.path("secret").asText()};
    }

    private HttpResponse<String> send(String token, String method, String path, JsonNode body, int expected) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(v3 + path))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body.toString()));
        if (token != null) {
            request.header("X-Auth-Token", token);
        }
        try {
            // A client per request: Keystone's test server (wsgiref) closes every connection after its answer.
            HttpClient http = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10))
                    .build();
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != expected) {
                throw new IllegalStateException("Keystone: " + method + " " + path + " answered "
                        + response.statusCode() + " (expected " + expected + "): " + response.body());
            }
            return response;
        } catch (IOException e) {
            throw new UncheckedIOException("Keystone: " + method + " " + path + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static ObjectNode object(String name, ObjectNode value) {
        ObjectNode node = JSON.createObjectNode();
        node.set(name, value);
        return node;
    }

    private static String id(HttpResponse<String> response, String name) {
        return read(response).path(name).path("id").asText();
    }

    private static JsonNode read(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
