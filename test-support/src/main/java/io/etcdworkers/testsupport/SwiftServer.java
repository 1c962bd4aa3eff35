package io.etcdworkers.testsupport;

import io.etcdworkers.testsupport.SwiftConfigFiles.Ports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A real OpenStack Swift with Keystone v3 for tests, from Debian's packages ({@code .ci/swift.sh}
 * installs them): memcached, Keystone's public API ({@code keystone-wsgi-public}, sqlite in WAL
 * mode, fernet tokens) and Swift's account, container, object and proxy servers, each a child
 * process on its own free 127.0.0.1 port, with every file under the test's directory (rings of
 * one device and one replica, no mount check). The proxy authenticates through Keystone
 * ({@code authtoken keystoneauth}, accounts {@code AUTH_<project id>}) and through tempauth
 * (accounts {@code TEMP_<account>}, user {@value #TEMPAUTH_USER}), with static and dynamic large
 * objects and bulk delete.
 *
 * <p>Keystone holds project {@value #PROJECT} in domain {@value #DOMAIN} with user {@value #USER}
 * ({@code member} there, which the proxy takes as an operator role), and the public
 * {@code object-store} endpoint of region {@value #REGION}. Its database is made once per test JVM
 * ({@link KeystoneTemplate}) and copied for each start, so a start costs about as long as the
 * slowest server's imports.
 *
 * <p>The packages missing, {@link #start} fails when {@code CI=true} and skips the test class with
 * a message otherwise. {@link #close()} stops every process it started; a shutdown hook does the
 * same if the test JVM dies first.
 */
public final class SwiftServer implements AutoCloseable {
    public static final String DOMAIN = "Default";
    public static final String PROJECT = "etcd";
    public static final String USER = "etcd-backup";
    /** The test user's password: not a secret, and never expected in a worker's output. */
    public static final String PASSWORD = "swift-test-password-8c1f";

    public static final String REGION = "RegionOne";
    public static final String TEMPAUTH_USER = "test:tester";
    public static final String TEMPAUTH_KEY = "testing";
    static final String ADMIN_PASSWORD = "swift-test-admin-5d2e";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final int START_ATTEMPTS = 3;
    private static final List<String> SWIFT_SERVERS = List.of("account", "container", "object", "proxy");

    private final List<ChildServer> servers;
    private final URI keystone;
    private final URI proxy;
    private final String projectId;
    private final SwiftClient client;
    private final KeystoneSetup setup;

    private SwiftServer(List<ChildServer> servers, URI keystone, URI proxy, String projectId) {
        this.servers = servers;
        this.keystone = keystone;
        this.proxy = proxy;
        this.projectId = projectId;
        this.setup = new KeystoneSetup(authUrl());
        this.client = new SwiftClient(() -> setup.login(USER, PASSWORD, PROJECT).id(), storageUrl());
    }

    /** Starts everything in {@code workDir} and waits until the proxy answers; retries on other ports if one was taken. */
    public static SwiftServer start(Path workDir) {
        SwiftBinaries bin = SwiftBinaries.find();
        IllegalStateException failure = null;
        long begin = System.nanoTime();
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            try {
                SwiftServer server = startOnce(bin, workDir.resolve("swift-" + attempt));
                // What a start costs is CI time: say it in the test output.
                System.err.printf(
                        "SwiftServer: Keystone and Swift up in %d ms (try %d)%n",
                        (System.nanoTime() - begin) / 1_000_000, attempt);
                return server;
            } catch (IllegalStateException e) {
                System.err.println("SwiftServer: try " + attempt + " failed: " + e.getMessage()
                        + (e.getCause() == null ? "" : " (" + e.getCause() + ")"));
                failure = e;
            }
        }
        throw failure;
    }

    /** Keystone's v3 URL, {@code http://127.0.0.1:PORT/v3}: the Secret's {@code authURL}. */
    public URI authUrl() {
        return URI.create(keystone + "/v3");
    }

    /** The proxy's tempauth login URL, {@code http://127.0.0.1:PORT/auth/v1.0}. */
    public URI tempauthUrl() {
        return URI.create(proxy + "/auth/v1.0");
    }

    /** The test project's account, {@code http://127.0.0.1:PORT/v1/AUTH_<project id>}. */
    public URI storageUrl() {
        return URI.create(proxy + "/v1/AUTH_" + projectId);
    }

    /** The proxy's root, {@code http://127.0.0.1:PORT}. */
    public URI proxyUrl() {
        return proxy;
    }

    /** The test user's account, with a token of its own. */
    public SwiftClient client() {
        return client;
    }

    /** The tempauth account {@code TEMP_test} of user {@value #TEMPAUTH_USER}, with a token of its own. */
    public SwiftClient tempauthClient() {
        return new SwiftClient(this::tempauthToken, URI.create(proxy + "/v1/TEMP_test"));
    }

    /** A new application credential of the test user for its project: {id, secret}. */
    public String[] createApplicationCredential(String name) {
        return setup.createApplicationCredential(setup.login(USER, PASSWORD, PROJECT), name);
    }

    /**
     * Writes the Secret as etcd-druid mounts it (one file per key, each with a trailing newline as
     * a Secret from a YAML block gets) and returns the environment that points a worker at it.
     */
    public Map<String, String> env(Path dir) {
        return secretEnv(
                dir,
                Map.of(
                        "authURL",
                        authUrl().toString(),
                        "domainName",
                        DOMAIN,
                        "tenantName",
                        PROJECT,
                        "username",
                        USER,
                        "password",
                        PASSWORD));
    }

    /** Writes {@code keys} as a mounted Secret's files in {@code dir}; the worker environment for it. */
    public static Map<String, String> secretEnv(Path dir, Map<String, String> keys) {
        try {
            Files.createDirectories(dir);
            for (Map.Entry<String, String> key : keys.entrySet()) {
                Files.writeString(dir.resolve(key.getKey()), key.getValue() + "\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of("PATH", System.getenv("PATH"), "OPENSTACK_APPLICATION_CREDENTIALS", dir.toString());
    }

    @Override
    public void close() {
        for (int i = servers.size() - 1; i >= 0; i--) {
            servers.get(i).close();
        }
    }

    private String tempauthToken() {
        HttpRequest request = HttpRequest.newBuilder(tempauthUrl())
                .header("X-Auth-User", TEMPAUTH_USER)
                .header("X-Auth-Key", TEMPAUTH_KEY)
                .GET()
                .build();
        try {
            HttpResponse<Void> response = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .build()
                    .send(request, HttpResponse.BodyHandlers.discarding());
            return response.headers()
                    .firstValue("X-Auth-Token")
                    .orElseThrow(() -> new IllegalStateException(
                            "tempauth answered " + response.statusCode() + " without a token"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static SwiftServer startOnce(SwiftBinaries bin, Path dir) {
        Ports ports = new Ports(
                ChildServer.freeLoopbackPort(),
                ChildServer.freeLoopbackPort(),
                ChildServer.freeLoopbackPort(),
                ChildServer.freeLoopbackPort(),
                ChildServer.freeLoopbackPort(),
                ChildServer.freeLoopbackPort());
        URI keystone = URI.create("http://127.0.0.1:" + ports.keystone());
        URI proxy = URI.create("http://127.0.0.1:" + ports.proxy());
        SwiftConfigFiles files = new SwiftConfigFiles(dir);
        files.write(ports, ADMIN_PASSWORD);
        Path logs = dir.resolve("logs");
        List<ChildServer> started = new ArrayList<>();
        try {
            ChildServer memcached = ChildServer.launch(
                    bin.process(
                            dir,
                            bin.memcached().toString(),
                            "-l",
                            "127.0.0.1",
                            "-p",
                            String.valueOf(ports.memcached()),
                            "-U",
                            "0",
                            "-m",
                            "32",
                            "-u",
                            System.getProperty("user.name")),
                    logs.resolve("memcached.log"),
                    STOP_TIMEOUT);
            started.add(memcached);
            Process rings = bin.startTool(
                    dir,
                    logs.resolve("rings.log"),
                    bin.python().toString(),
                    files.swiftDir().resolve("rings.py").toString(),
                    files.swiftDir().toString(),
                    String.valueOf(ports.account()),
                    String.valueOf(ports.container()),
                    String.valueOf(ports.object()));
            // Keystone as early as it can: its imports are the slowest; the first start per JVM makes its database.
            KeystoneTemplate.copyTo(bin, files.keystoneDb());
            ProcessBuilder keystoneProcess = bin.process(
                    dir,
                    bin.keystoneWsgiPublic().toString(),
                    "--host",
                    "127.0.0.1",
                    "--port",
                    String.valueOf(ports.keystone()));
            keystoneProcess
                    .environment()
                    .put("OS_KEYSTONE_CONFIG_DIR", files.keystoneDir().toString());
            ChildServer keystoneServer =
                    ChildServer.launch(keystoneProcess, logs.resolve("keystone.log"), STOP_TIMEOUT);
            started.add(keystoneServer);
            bin.await(rings, logs.resolve("rings.log"), "building the Swift rings");
            List<ChildServer> swift = new ArrayList<>();
            for (String server : SWIFT_SERVERS) {
                ChildServer s = ChildServer.launch(
                        bin.process(
                                dir,
                                bin.swiftServer(server).toString(),
                                files.conf(server).toString(),
                                "-v"),
                        logs.resolve(server + ".log"),
                        STOP_TIMEOUT);
                started.add(s);
                swift.add(s);
            }
            memcached.awaitUp(
                    "memcached on port " + ports.memcached(),
                    logs.resolve("memcached.log"),
                    START_TIMEOUT,
                    () -> ChildServer.listening(ports.memcached()));
            URI keystoneV3 = URI.create(keystone + "/v3");
            keystoneServer.awaitUp(
                    "Keystone at " + keystone,
                    logs.resolve("keystone.log"),
                    START_TIMEOUT,
                    () -> ChildServer.get(keystoneV3)
                            .filter(a -> a.status() == 200)
                            .isPresent());
            KeystoneSetup setup = new KeystoneSetup(keystoneV3);
            String projectId = setup.createProjectAndEndpoint(
                    setup.login("admin", ADMIN_PASSWORD, "admin"), PROJECT, USER, PASSWORD, REGION, proxy);
            int[] storagePorts = {ports.account(), ports.container(), ports.object()};
            for (int i = 0; i < 3; i++) {
                int port = storagePorts[i];
                swift.get(i)
                        .awaitUp(
                                "the Swift " + SWIFT_SERVERS.get(i) + " server on port " + port,
                                logs.resolve(SWIFT_SERVERS.get(i) + ".log"),
                                START_TIMEOUT,
                                () -> ChildServer.listening(port));
            }
            URI health = URI.create(proxy + "/healthcheck");
            swift.get(3)
                    .awaitUp(
                            "the Swift proxy at " + proxy,
                            logs.resolve("proxy.log"),
                            START_TIMEOUT,
                            () -> ChildServer.get(health)
                                    .filter(a -> a.status() == 200)
                                    .isPresent());
            return new SwiftServer(List.copyOf(started), keystone, proxy, projectId);
        } catch (RuntimeException e) {
            for (int i = started.size() - 1; i >= 0; i--) {
                started.get(i).close();
            }
            throw e instanceof IllegalStateException ise ? ise : new IllegalStateException("Swift did not start", e);
        }
    }

    /** Skips (outside CI) or fails (CI) when the packages are missing. */
    static void missing(String message) {
        RequiredInCi.missing(message, "the Swift tests");
    }

    /** The {@code X-Trans-Id}-free view of one object, for assertions. */
    public Optional<Long> size(String container, String key) {
        return client.head(container, key);
    }
}
