package io.etcdworkers.store.swift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.store.StoreRetry;
import io.etcdworkers.testsupport.FaultProxy;
import io.etcdworkers.testsupport.SwiftServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SwiftObjectStore} against Debian's Swift with Keystone v3 on loopback ({@link SwiftServer}):
 * listing across pages, streamed and ranged reads, a static large object invisible until its
 * manifest is written, abort leaving no segments, a dynamic large object as etcdbrctl writes it,
 * the logins (password, application credential, tempauth, a 401 answered by a new login), and the
 * errors a restore depends on. {@link FaultProxy} in front of the proxy counts requests and plays
 * the faults Swift does not make on its own.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SwiftObjectStoreIT {
    private static final String CONTAINER = "backups";
    private static final int SEGMENT = 1 << 20;
    private static final StoreRetry FAST =
            new StoreRetry(3, Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofSeconds(10));

    @TempDir
    static Path serverDir;

    static SwiftServer swift;
    static SwiftObjectStore store;

    @TempDir
    Path dir;

    @BeforeAll
    static void startServer() {
        swift = SwiftServer.start(serverDir);
        swift.client().createContainer(CONTAINER);
        store = new SwiftObjectStore(
                config(swift.env(serverDir.resolve("secret"))).withSegmentSize(SEGMENT));
    }

    @AfterAll
    static void stopServer() {
        if (store != null) {
            store.close();
        }
        if (swift != null) {
            swift.close();
        }
    }

    @Test
    void aListingWalksEveryPageThroughTheEndpointOverrideAndStaysUnderItsPrefix() {
        for (int i = 0; i < 25; i++) {
            swift.client().put(CONTAINER, String.format("many/v2/obj-%03d", i), new byte[i % 7]);
        }
        swift.client().put(CONTAINER, "many-sibling/v2/x", new byte[1]);

        try (FaultProxy proxy = FaultProxy.start(swift.proxyUrl())) {
            URI account = URI.create(proxy.endpoint() + swift.storageUrl().getPath());
            SwiftObjectStore paged = new SwiftObjectStore(config(swift.env(dir.resolve("secret")), Optional.of(account))
                    .withPageSize(10));
            List<ObjectInfo> listed = paged.list("many/");

            assertThat(paged.describe()).isEqualTo("swift container \"" + CONTAINER + "\" at " + account);
            assertThat(listed)
                    .hasSize(25)
                    .extracting(ObjectInfo::key)
                    .doesNotHaveDuplicates()
                    .allMatch(k -> k.startsWith("many/v2/"));
            assertThat(listed)
                    .filteredOn(o -> o.key().equals("many/v2/obj-024"))
                    .singleElement()
                    .satisfies(o -> assertThat(o.size()).isEqualTo(24 % 7));
            assertThat(listed.get(0).lastModified()).isAfter(Instant.now().minus(Duration.ofHours(1)));
            assertThat(proxy.requests())
                    .filteredOn(r -> r.startsWith("GET " + swift.storageUrl().getPath() + "/" + CONTAINER + "?"))
                    .hasSize(3);
        }
    }

    @Test
    void readsStreamTheWholeObjectAndExactRanges() throws IOException {
        byte[] content = random(3_000_000, 1);
        swift.client().put(CONTAINER, "read/object", content);

        try (InputStream in = store.open("read/object")) {
            assertThat(in.readAllBytes()).isEqualTo(content);
        }
        long offset = 2 * 1024 * 1024 - 1000L;
        try (InputStream in = store.openRange("read/object", offset, 5000)) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(content, (int) offset, (int) offset + 5000));
        }
        try (InputStream in = store.openRange("read/object", 5, 0)) {
            assertThat(in.read()).isEqualTo(-1);
        }
        assertThatThrownBy(() -> {
                    try (InputStream in = store.openRange("read/object", content.length - 10L, 11)) {
                        in.readAllBytes();
                    }
                })
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.TRUNCATED_OBJECT);
                    assertThat(e.getMessage()).contains("\"read/object\"", "10 of 11 bytes");
                });
        assertThatThrownBy(() -> store.openRange("read/object", content.length + 5L, 1))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TRUNCATED_OBJECT));
    }

    @Test
    void aMissingObjectIsVanished() {
        assertThatThrownBy(() -> store.open("read/none")).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.OBJECT_VANISHED);
            assertThat(e.getMessage())
                    .contains(
                            "\"read/none\"",
                            "swift container \"" + CONTAINER + "\" at " + swift.storageUrl(),
                            "HTTP 404");
        });
        assertThatThrownBy(() -> store.openRange("read/none", 0, 0))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.OBJECT_VANISHED));
    }

    @Test
    void aSegmentedUploadIsInvisibleUntilItsManifestIsWritten() throws IOException {
        String key = "upload/v2/Full-00000000-00000100-1";
        byte[] content = random(5 * SEGMENT + 12_345, 3);

        try (ObjectWriter writer = store.create(key)) {
            OutputStream out = writer.out();
            for (int off = 0; off < content.length; off += 300_000) {
                out.write(content, off, Math.min(300_000, content.length - off));
            }
            out.close();
            assertThat(swift.size(CONTAINER, key)).isEmpty();
            assertThat(swift.client().keys(CONTAINER, "upload/")).allMatch(k -> k.startsWith(key + "/"));
            assertThat(SnapshotCatalog.load(store, "upload").snapshots()).isEmpty();
            assertThatThrownBy(() -> store.open(key))
                    .isInstanceOfSatisfying(
                            WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.OBJECT_VANISHED));

            ObjectInfo committed = writer.commit();

            assertThat(committed.key()).isEqualTo(key);
            assertThat(committed.size()).isEqualTo(content.length);
        }
        assertThat(swift.client().keys(CONTAINER, "upload/"))
                .containsExactly(
                        key,
                        key + "/0000000001",
                        key + "/0000000002",
                        key + "/0000000003",
                        key + "/0000000004",
                        key + "/0000000005",
                        key + "/0000000006");
        assertThat(store.list("upload/"))
                .filteredOn(o -> o.key().equals(key))
                .extracting(ObjectInfo::size)
                .containsExactly((long) content.length);
        assertThat(SnapshotCatalog.load(store, "upload").snapshots())
                .singleElement()
                .satisfies(s -> assertThat(s.key()).isEqualTo(key));
        try (InputStream in = store.open(key)) {
            assertThat(in.readAllBytes()).isEqualTo(content);
        }
        try (InputStream in = store.openRange(key, SEGMENT - 10L, 20)) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(content, SEGMENT - 10, SEGMENT + 10));
        }
    }

    @Test
    void closingWithoutACommitLeavesNoSegmentsAndKeepsWhatWasThere() throws IOException {
        try (ObjectWriter writer = store.create("abort/v2/new")) {
            writer.out().write(random(3 * SEGMENT + 1, 4));
        }
        assertThat(swift.client().keys(CONTAINER, "abort/")).isEmpty();

        swift.client().put(CONTAINER, "abort/v2/old", "old".getBytes());
        try (ObjectWriter writer = store.create("abort/v2/old")) {
            writer.out().write(random(2 * SEGMENT + 1, 5));
        }
        assertThat(swift.client().keys(CONTAINER, "abort/")).containsExactly("abort/v2/old");
        try (InputStream in = store.open("abort/v2/old")) {
            assertThat(in.readAllBytes()).isEqualTo("old".getBytes());
        }
    }

    @Test
    void smallAndEmptyObjectsAreOnePut() throws IOException {
        try (ObjectWriter writer = store.create("small/one")) {
            writer.out().write("hello".getBytes());
            assertThat(swift.size(CONTAINER, "small/one")).isEmpty();
            assertThat(writer.commit().size()).isEqualTo(5);
        }
        try (ObjectWriter writer = store.create("small/empty")) {
            assertThat(writer.commit().size()).isZero();
        }
        assertThat(swift.client().keys(CONTAINER, "small/")).containsExactly("small/empty", "small/one");
        try (InputStream in = store.open("small/empty")) {
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void aDynamicLargeObjectAsEtcdbrctlWritesItReadsAsOne() throws IOException {
        byte[] content = random(2 * SEGMENT + 777, 6);
        String key = "dlo/v2/Full-00000000-00000007-1700000000.gz";
        swift.client().putDynamicLargeObject(CONTAINER, key, content, SEGMENT);

        try (InputStream in = store.open(key)) {
            assertThat(in.readAllBytes()).isEqualTo(content);
        }
        try (InputStream in = store.openRange(key, SEGMENT - 3L, 6)) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(content, SEGMENT - 3, SEGMENT + 3));
        }
        assertThat(SnapshotCatalog.load(store, "dlo").snapshots())
                .singleElement()
                .satisfies(s -> assertThat(s.key()).isEqualTo(key));
    }

    @Test
    void aWrongPasswordIsAccessDeniedAndNamesNoSecret() {
        Map<String, String> env = SwiftServer.secretEnv(
                dir.resolve("wrong"),
                Map.of(
                        "authURL",
                        swift.authUrl().toString(),
                        "domainName",
                        SwiftServer.DOMAIN,
                        "tenantName",
                        SwiftServer.PROJECT,
                        "username",
                        SwiftServer.USER,
                        "password",
                        "not-the-password-3f9a"));
        SwiftObjectStore wrong = new SwiftObjectStore(config(env).withRetry(FAST));

        assertThatThrownBy(() -> wrong.list("p/")).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.STORE_NOT_FOUND);
            assertThat(e.code().exitCode()).isEqualTo(21);
            assertThat(e.getMessage())
                    .contains(
                            "swift container \"" + CONTAINER + "\"",
                            swift.authUrl().toString(),
                            "refused the credentials",
                            "HTTP 401")
                    .doesNotContain("not-the-password-3f9a");
        });
    }

    @Test
    void aMissingContainerIsNotFound() {
        SwiftObjectStore missing =
                new SwiftObjectStore(config(swift.env(dir.resolve("secret"))).withContainer("no-such-container"));

        assertThatThrownBy(() -> missing.list("p/")).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.STORE_NOT_FOUND);
            assertThat(e.getMessage())
                    .contains(
                            "swift container \"no-such-container\" at " + swift.storageUrl(),
                            "listing \"p/\"",
                            "the container does not exist",
                            "HTTP 404");
        });
        assertThatThrownBy(() -> {
                    try (ObjectWriter writer = missing.create("p/v2/x")) {
                        writer.out().write(1);
                        writer.commit();
                    }
                })
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_NOT_FOUND));
    }

    @Test
    void tempauthAndApplicationCredentialsLogInToo() throws IOException {
        swift.tempauthClient().createContainer("temp");
        swift.tempauthClient().put("temp", "t/v2/a", "via tempauth".getBytes());
        Map<String, String> tempauth = SwiftServer.secretEnv(
                dir.resolve("tempauth"),
                Map.of(
                        "authURL",
                        swift.tempauthUrl().toString(),
                        "tenantName",
                        "test",
                        "username",
                        "tester",
                        "password",
                        SwiftServer.TEMPAUTH_KEY));
        SwiftObjectStore temp = new SwiftObjectStore(config(tempauth).withContainer("temp"));

        assertThat(temp.list("t/")).extracting(ObjectInfo::key).containsExactly("t/v2/a");
        assertThat(temp.describe()).contains("/v1/TEMP_test");
        try (InputStream in = temp.open("t/v2/a")) {
            assertThat(in.readAllBytes()).isEqualTo("via tempauth".getBytes());
        }

        String[] credential = swift.createApplicationCredential("restore-worker");
        Map<String, String> application = SwiftServer.secretEnv(
                dir.resolve("application"),
                Map.of(
                        "authURL",
                        swift.authUrl().toString(),
                        "domainName",
                        SwiftServer.DOMAIN,
                        "tenantName",
                        SwiftServer.PROJECT,
                        "applicationCredentialID",
                        credential[0],
                        "applicationCredentialName",
                        "restore-worker",
                        "applicationCredentialSecret",
                        credential[1]));
        swift.client().put(CONTAINER, "appcred/v2/a", new byte[3]);
        assertThat(new SwiftObjectStore(config(application)).list("appcred/"))
                .extracting(ObjectInfo::key, ObjectInfo::size)
                .containsExactly(tuple("appcred/v2/a", 3L));
    }

    @Test
    void a401IsAnsweredByOneNewLogin() {
        swift.client().put(CONTAINER, "relogin/v2/a", new byte[1]);
        try (FaultProxy proxy = FaultProxy.start(swift.proxyUrl())) {
            URI account = URI.create(proxy.endpoint() + swift.storageUrl().getPath());
            SwiftObjectStore proxied =
                    new SwiftObjectStore(config(swift.env(dir.resolve("secret")), Optional.of(account))
                            .withRetry(FAST));
            proxy.inject(FaultProxy.Fault.status(401), "GET", ".*relogin.*", 1);

            assertThat(proxied.list("relogin/")).extracting(ObjectInfo::key).containsExactly("relogin/v2/a");
            assertThat(proxy.faulted()).hasSize(1);

            proxy.inject(FaultProxy.Fault.status(401), "GET", ".*relogin.*", FaultProxy.ALWAYS);
            assertThatThrownBy(() -> proxied.list("relogin/")).isInstanceOfSatisfying(WorkerException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.STORE_NOT_FOUND);
                assertThat(e.getMessage()).contains("access denied: Swift refused a fresh token", "HTTP 401");
            });
            assertThat(proxy.faulted()).hasSize(3);
        }
    }

    @Test
    void anEndpointWhereNothingListensIsUnavailableAndAnUnknownRegionIsAUsageError() throws IOException {
        URI nobody;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}))) {
            nobody = URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/v1/AUTH_x");
        }
        SwiftObjectStore unreachable = new SwiftObjectStore(
                config(swift.env(dir.resolve("secret")), Optional.of(nobody)).withRetry(FAST));
        assertThatThrownBy(() -> unreachable.list("p/")).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
            assertThat(e.getMessage())
                    .contains("swift container \"" + CONTAINER + "\" at " + nobody, "could not be reached");
        });

        Map<String, String> env = new HashMap<>(swift.env(dir.resolve("secret")));
        env.put("OS_REGION_NAME", "RegionTwo");
        SwiftObjectStore elsewhere = new SwiftObjectStore(config(env));
        assertThatThrownBy(() -> elsewhere.list("p/")).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
            assertThat(e.getMessage())
                    .contains(
                            "has no public object-store endpoint in region RegionTwo",
                            "public in " + SwiftServer.REGION);
        });
    }

    static SwiftStoreConfig config(Map<String, String> env) {
        return config(env, Optional.empty());
    }

    static SwiftStoreConfig config(Map<String, String> env, Optional<URI> override) {
        return new SwiftStoreConfigFactory(env).create(Optional.of(CONTAINER), override);
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
