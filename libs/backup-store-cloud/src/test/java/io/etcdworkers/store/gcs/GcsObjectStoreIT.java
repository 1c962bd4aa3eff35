package io.etcdworkers.store.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import com.google.cloud.storage.BlobId;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.store.StoreRetry;
import io.etcdworkers.testsupport.FaultProxy;
import io.etcdworkers.testsupport.GcsEmulatorServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GcsObjectStore} against a server of the GCS JSON API (firebase-tools' emulator):
 * listing across pages, streamed and ranged reads, resumable uploads that stay invisible until
 * finalized, abort, and the store errors a restore depends on.
 *
 * <p>Where the emulator cannot play GCS, {@link FaultProxy} in front of it does, and the test says
 * so: the emulator creates every bucket a request names, so the missing bucket's 404 comes from
 * the proxy. Its resumable uploads end with their first chunk, so every upload here fits in one
 * ({@link GcsEmulatorServer#UPLOAD_CHUNK_SIZE}); uploads of several chunks are not tested.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class GcsObjectStoreIT {
    private static final String BUCKET = "backups";
    private static final int MANY = 25;
    private static final int PAGE = 10;
    private static final int TWENTY_MB = 20_000_000;
    private static final StoreRetry FAST =
            new StoreRetry(3, Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofSeconds(10));

    @TempDir
    static Path serverDir;

    static GcsEmulatorServer emulator;
    static GcsObjectStore store;

    @BeforeAll
    static void startServer() {
        emulator = GcsEmulatorServer.start(serverDir);
        store = new GcsObjectStore(config(BUCKET, emulator.endpoint()));
    }

    @AfterAll
    static void stopServer() {
        if (store != null) {
            store.close();
        }
        if (emulator != null) {
            emulator.close();
        }
    }

    @Test
    void aListingWalksEveryPageAndStaysUnderItsPrefix() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> uploads = IntStream.range(0, MANY)
                    .<Future<?>>mapToObj(i -> pool.submit(
                            () -> emulator.put(BUCKET, String.format("many/v2/obj-%03d", i), new byte[i % 7])))
                    .toList();
            for (Future<?> upload : uploads) {
                upload.get();
            }
        } finally {
            pool.shutdown();
        }
        emulator.put(BUCKET, "many-sibling/v2/x", new byte[1]);

        try (FaultProxy proxy = FaultProxy.start(emulator.endpoint());
                GcsObjectStore paged =
                        new GcsObjectStore(config(BUCKET, proxy.endpoint()).withPageSize(PAGE))) {
            List<ObjectInfo> listed = paged.list("many/");

            assertThat(listed).hasSize(MANY);
            assertThat(listed)
                    .extracting(ObjectInfo::key)
                    .doesNotHaveDuplicates()
                    .allMatch(k -> k.startsWith("many/v2/"));
            assertThat(listed)
                    .filteredOn(o -> o.key().equals("many/v2/obj-024"))
                    .singleElement()
                    .satisfies(o -> assertThat(o.size()).isEqualTo(24 % 7));
            assertThat(listed.get(0).lastModified()).isAfter(Instant.EPOCH);
            assertThat(proxy.requests())
                    .filteredOn(r -> r.startsWith("GET /storage/v1/b/" + BUCKET + "/o?"))
                    .hasSize((MANY + PAGE - 1) / PAGE);
        }
    }

    @Test
    void readsStreamTheWholeObjectAndExactRanges() throws IOException {
        byte[] content = random(5_000_000, 1);
        emulator.put(BUCKET, "read/object", content);

        try (InputStream in = store.open("read/object")) {
            assertThat(in.readAllBytes()).isEqualTo(content);
        }
        long offset = 2 * 1024 * 1024 - 1000L;
        try (InputStream in = store.openRange("read/object", offset, 5000)) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(content, (int) offset, (int) offset + 5000));
        }
        try (InputStream in = store.openRange("read/object", content.length - 10L, 10)) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(content, content.length - 10, content.length));
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
    }

    @Test
    void aBodyCutShortIsResumedWhereItBroke() throws IOException {
        byte[] content = random(3_000_000, 2);
        emulator.put(BUCKET, "cut/object", content);
        try (FaultProxy proxy = FaultProxy.start(emulator.endpoint());
                GcsObjectStore proxied = new GcsObjectStore(config(BUCKET, proxy.endpoint()))) {
            proxy.inject(FaultProxy.Fault.cutBody(), "GET", ".*/o/cut%2Fobject\\?alt=media.*", 1);

            try (InputStream in = proxied.open("cut/object")) {
                assertThat(in.readAllBytes()).isEqualTo(content);
            }
            assertThat(proxy.faulted()).hasSize(1);
        }
    }

    @Test
    void aMissingObjectIsVanished() {
        assertThatThrownBy(() -> store.open("read/none")).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.OBJECT_VANISHED);
            assertThat(e.getMessage())
                    .contains(
                            "\"read/none\"",
                            "gcs bucket \"" + BUCKET + "\"",
                            emulator.endpoint().toString(),
                            "HTTP 404");
        });
        assertThatThrownBy(() -> store.openRange("read/none", 0, 0))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.OBJECT_VANISHED));
    }

    @Test
    void anUploadIsInvisibleUntilFinalized() throws Exception {
        String key = "upload/v2/Full-00000000-00000100-1";
        byte[] content = random(TWENTY_MB, 3);

        try (ObjectWriter writer = store.create(key)) {
            OutputStream out = writer.out();
            for (int off = 0; off < content.length; off += 1 << 20) {
                out.write(content, off, Math.min(1 << 20, content.length - off));
            }
            out.close();
            assertThat(store.list("upload/")).isEmpty();
            assertThat(emulator.client().get(BlobId.of(BUCKET, key))).isNull();
            assertThatThrownBy(() -> store.open(key))
                    .isInstanceOfSatisfying(
                            WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.OBJECT_VANISHED));

            ObjectInfo committed = writer.commit();

            assertThat(committed.key()).isEqualTo(key);
            assertThat(committed.size()).isEqualTo(TWENTY_MB);
        }
        assertThat(store.list("upload/"))
                .extracting(ObjectInfo::key, ObjectInfo::size)
                .containsExactly(tuple(key, (long) TWENTY_MB));
        try (InputStream in = store.open(key)) {
            assertThat(sha256(in))
                    .isEqualTo(MessageDigest.getInstance("SHA-256").digest(content));
        }
    }

    @Test
    void closingWithoutFinalizingLeavesNothingAndKeepsWhatWasThere() throws IOException {
        String fresh = "abort/v2/new";
        try (ObjectWriter writer = store.create(fresh)) {
            writer.out().write(random(1_000_000, 4));
        }
        assertThat(store.list("abort/")).isEmpty();

        String existing = "abort/v2/old";
        emulator.put(BUCKET, existing, "old".getBytes());
        try (ObjectWriter writer = store.create(existing)) {
            writer.out().write(random(1_000_001, 5));
        }
        assertThat(store.list("abort/"))
                .extracting(ObjectInfo::key, ObjectInfo::size)
                .containsExactly(tuple(existing, 3L));
        try (InputStream in = store.open(existing)) {
            assertThat(in.readAllBytes()).isEqualTo("old".getBytes());
        }
    }

    @Test
    void anEmptyObjectIsWrittenAndReadBack() throws IOException {
        try (ObjectWriter writer = store.create("empty/one")) {
            assertThat(writer.commit().size()).isZero();
        }
        try (InputStream in = store.open("empty/one")) {
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void aMissingBucketIsNotFound() {
        // The emulator creates any bucket a request names; GCS answers a missing one with 404.
        try (FaultProxy proxy = FaultProxy.start(emulator.endpoint());
                GcsObjectStore missing = new GcsObjectStore(
                        config("no-such-bucket", proxy.endpoint()).withRetry(FAST))) {
            proxy.inject(FaultProxy.Fault.status(404), ".*", ".*/b/no-such-bucket/.*", FaultProxy.ALWAYS);

            assertThatThrownBy(() -> missing.list("p/")).isInstanceOfSatisfying(WorkerException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.STORE_NOT_FOUND);
                assertThat(e.getMessage())
                        .contains(
                                "gcs bucket \"no-such-bucket\" at " + proxy.endpoint(),
                                "listing \"p/\"",
                                "the bucket does not exist",
                                "HTTP 404");
            });
            assertThatThrownBy(() -> missing.create("p/v2/x"))
                    .isInstanceOfSatisfying(
                            WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_NOT_FOUND));
        }
    }

    @Test
    void anEndpointWhereNothingListensIsUnavailableAfterRetries() throws IOException {
        URI nobody;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}))) {
            nobody = URI.create("http://127.0.0.1:" + socket.getLocalPort());
        }
        try (GcsObjectStore unreachable =
                new GcsObjectStore(config(BUCKET, nobody).withRetry(FAST))) {
            assertThatThrownBy(() -> unreachable.list("p/")).isInstanceOfSatisfying(WorkerException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
                assertThat(e.getMessage())
                        .contains("gcs bucket \"" + BUCKET + "\" at " + nobody, "could not be reached");
            });
        }
    }

    @Test
    void failuresOfTheStoreAreRetried() throws IOException {
        emulator.put(BUCKET, "retry/v2/a", "a".getBytes());
        try (FaultProxy proxy = FaultProxy.start(emulator.endpoint());
                GcsObjectStore proxied =
                        new GcsObjectStore(config(BUCKET, proxy.endpoint()).withRetry(FAST))) {
            proxy.inject(FaultProxy.Fault.status(503), "GET", ".*", 2);

            assertThat(proxied.list("retry/")).extracting(ObjectInfo::key).containsExactly("retry/v2/a");
            proxy.inject(FaultProxy.Fault.status(503), "GET", ".*", FaultProxy.ALWAYS);
            assertThatThrownBy(() -> proxied.open("retry/v2/a")).isInstanceOfSatisfying(WorkerException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
                assertThat(e.getMessage()).contains("\"retry/v2/a\"", "HTTP 503");
            });
            assertThat(proxy.faulted()).hasSize(2 + FAST.maxTries());
        }
    }

    static GcsStoreConfig config(String bucket, URI endpoint) {
        return new GcsStoreConfig(
                bucket,
                endpoint,
                GcsCredentials.anonymous("the emulator"),
                StoreRetry.DEFAULT,
                GcsEmulatorServer.UPLOAD_CHUNK_SIZE,
                GcsStoreConfig.DEFAULT_PAGE_SIZE);
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static byte[] sha256(InputStream in) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        byte[] buf = new byte[1 << 16];
        for (int n; (n = in.read(buf)) > 0; ) {
            digest.update(buf, 0, n);
        }
        return digest.digest();
    }
}
