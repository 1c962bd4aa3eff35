package io.etcdworkers.store.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlockListType;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.store.StoreRetry;
import io.etcdworkers.testsupport.AzuriteServer;
import java.io.ByteArrayOutputStream;
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
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AzureBlobStore} against a real Azure Blob server (Azurite): listing across pages,
 * streamed and ranged reads, block uploads that stay invisible until committed, and the store
 * errors a restore depends on.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class AzureBlobStoreIT {
    private static final String CONTAINER = "backups";
    /** Azure (and Azurite) answer at most 5,000 blobs a page. */
    private static final int MANY = 5_003;

    private static final int FIFTY_MB = 50_000_000;

    @TempDir
    static Path serverDir;

    static AzuriteServer azurite;
    static BlobContainerClient blobs;
    static AzureBlobStore store;

    @BeforeAll
    static void startServer() {
        azurite = AzuriteServer.start(serverDir);
        blobs = azurite.createContainer(CONTAINER);
        store = new AzureBlobStore(config(CONTAINER, AzuriteServer.KEY));
    }

    @AfterAll
    static void stopServer() {
        if (azurite != null) {
            azurite.close();
        }
    }

    @Test
    void aListingWalksEveryPageAndStaysUnderItsPrefix() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> uploads = IntStream.range(0, MANY)
                    .<Future<?>>mapToObj(i ->
                            pool.submit(() -> blobs.getBlobClient(String.format("many/v2/obj-%05d", i))
                                    .upload(BinaryData.fromBytes(new byte[i % 7]))))
                    .toList();
            for (Future<?> upload : uploads) {
                upload.get();
            }
        } finally {
            pool.shutdown();
        }
        blobs.getBlobClient("many-sibling/v2/x").upload(BinaryData.fromString("x"));

        List<ObjectInfo> listed = store.list("many/");

        assertThat(listed).hasSize(MANY);
        assertThat(listed).extracting(ObjectInfo::key).doesNotHaveDuplicates().allMatch(k -> k.startsWith("many/v2/"));
        assertThat(listed)
                .filteredOn(o -> o.key().equals("many/v2/obj-05002"))
                .singleElement()
                .satisfies(o -> assertThat(o.size()).isEqualTo(5002 % 7));
        assertThat(listed.get(0).lastModified()).isAfter(Instant.EPOCH);
    }

    @Test
    void readsStreamTheWholeBlobAndExactRanges() throws IOException {
        byte[] content = random(10_000_000, 1);
        blobs.getBlobClient("read/blob").upload(BinaryData.fromBytes(content));

        try (InputStream in = store.open("read/blob")) {
            assertThat(in.readAllBytes()).isEqualTo(content);
        }
        // In the middle, and the very end.
        long offset = 4 * 1024 * 1024 - 1000L;
        try (InputStream in = store.openRange("read/blob", offset, 5000)) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(content, (int) offset, (int) offset + 5000));
        }
        try (InputStream in = store.openRange("read/blob", content.length - 10L, 10)) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(content, content.length - 10, content.length));
        }
        try (InputStream in = store.openRange("read/blob", 5, 0)) {
            assertThat(in.read()).isEqualTo(-1);
        }
        assertThatThrownBy(() -> store.openRange("read/blob", content.length - 10L, 11))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.TRUNCATED_OBJECT);
                    assertThat(e.getMessage()).contains("\"read/blob\"", "10000000 bytes");
                });
    }

    @Test
    void aMissingBlobIsVanished() {
        assertThatThrownBy(() -> store.open("read/none")).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.OBJECT_VANISHED);
            assertThat(e.getMessage())
                    .contains("\"read/none\"", CONTAINER, azurite.accountUrl().toString(), "404");
        });
        assertThatThrownBy(() -> store.openRange("read/none", 0, 0))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.OBJECT_VANISHED));
    }

    @Test
    void aFiftyMegabyteUploadIsInvisibleUntilCommitted() throws Exception {
        String key = "upload/v2/Full-00000000-00000100-1";
        byte[] content = random(FIFTY_MB, 3);

        try (ObjectWriter writer = store.create(key)) {
            OutputStream out = writer.out();
            for (int off = 0; off < content.length; off += 1 << 20) {
                out.write(content, off, Math.min(1 << 20, content.length - off));
            }
            out.close();
            // Five 8 MiB blocks are staged by now (the sixth is in the buffer); none of it is a blob yet.
            assertThat(blobs.getBlobClient(key)
                            .getBlockBlobClient()
                            .listBlocks(BlockListType.UNCOMMITTED)
                            .getUncommittedBlocks())
                    .hasSize(5);
            assertThat(store.list("upload/")).isEmpty();
            assertThat(blobs.getBlobClient(key).exists()).isFalse();
            assertThatThrownBy(() -> store.open(key))
                    .isInstanceOfSatisfying(
                            WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.OBJECT_VANISHED));

            ObjectInfo committed = writer.commit();

            assertThat(committed.key()).isEqualTo(key);
            assertThat(committed.size()).isEqualTo(FIFTY_MB);
        }
        assertThat(store.list("upload/"))
                .extracting(ObjectInfo::key, ObjectInfo::size)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(key, (long) FIFTY_MB));
        assertThat(blobs.getBlobClient(key)
                        .getBlockBlobClient()
                        .listBlocks(BlockListType.COMMITTED)
                        .getCommittedBlocks())
                .hasSize(6);
        try (InputStream in = store.open(key)) {
            assertThat(sha256(in))
                    .isEqualTo(MessageDigest.getInstance("SHA-256").digest(content));
        }
    }

    @Test
    void closingWithoutCommitLeavesNothingAndKeepsWhatWasThere() throws IOException {
        String fresh = "abort/v2/new";
        try (ObjectWriter writer = store.create(fresh)) {
            writer.out().write(random(AzureStoreConfig.DEFAULT_BLOCK_SIZE * 2 + 5, 4));
        }
        assertThat(store.list("abort/")).isEmpty();
        assertThat(blobs.getBlobClient(fresh).exists()).isFalse();

        String existing = "abort/v2/old";
        blobs.getBlobClient(existing).upload(BinaryData.fromString("old"));
        try (ObjectWriter writer = store.create(existing)) {
            writer.out().write(random(AzureStoreConfig.DEFAULT_BLOCK_SIZE + 1, 5));
        }
        assertThat(store.list("abort/"))
                .extracting(ObjectInfo::key, ObjectInfo::size)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(existing, 3L));
        try (InputStream in = store.open(existing)) {
            assertThat(in.readAllBytes()).isEqualTo("old".getBytes());
        }
    }

    @Test
    void aSmallBlobIsOnePutAndReadsBack() throws IOException {
        try (ObjectWriter writer = store.create("small/one")) {
            writer.out().write("hello".getBytes());
            assertThat(blobs.getBlobClient("small/one").exists()).isFalse();
            assertThat(writer.commit().size()).isEqualTo(5);
        }
        try (InputStream in = store.open("small/one")) {
            assertThat(in.readAllBytes()).isEqualTo("hello".getBytes());
        }
    }

    @Test
    void aReadLongerThanTheRequestTimeoutIsNotCutByIt() throws IOException {
        byte[] content = random(20_000_000, 6);
        blobs.getBlobClient("slow/blob").upload(BinaryData.fromBytes(content));
        StoreRetry oneSecond = new StoreRetry(2, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofSeconds(1));
        try (AzureBlobStore strict =
                        new AzureBlobStore(config("backups", AzuriteServer.KEY).withRetry(oneSecond));
                InputStream in = strict.open("slow/blob")) {
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            byte[] buf = new byte[1 << 20];
            long start = System.nanoTime();
            for (int n; (n = in.read(buf)) >= 0; ) {
                read.write(buf, 0, n);
                // A slow consumer (a restore decompressing and replaying): the body takes ~3 s to read.
                LockSupport.parkNanos(150_000_000L * n / buf.length);
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofSeconds(2));
            assertThat(read.toByteArray()).isEqualTo(content);
        }
    }

    @Test
    void aStoreThatRefusesConnectionsIsUnavailableAfterRetries() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        AzureStoreConfig config = new AzureStoreConfig(
                CONTAINER,
                URI.create("http://127.0.0.1:" + closedPort + "/" + AzuriteServer.ACCOUNT + "/" + CONTAINER),
                AzuriteServer.ACCOUNT,
                AzuriteServer.KEY,
                fastRetry(),
                AzureStoreConfig.DEFAULT_BLOCK_SIZE);
        try (AzureBlobStore down = new AzureBlobStore(config)) {
            for (Runnable call : new Runnable[] {() -> down.list("x/"), () -> down.open("x/y")}) {
                assertThatThrownBy(call::run).isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
                    assertThat(e.getMessage()).contains(CONTAINER, "127.0.0.1:" + closedPort, "could not be reached");
                });
            }
        }
    }

    static AzureStoreConfig config(String container, String key) {
        return new AzureStoreConfig(
                container,
                URI.create(azurite.accountUrl() + "/" + container),
                AzuriteServer.ACCOUNT,
                key,
                StoreRetry.DEFAULT,
                AzureStoreConfig.DEFAULT_BLOCK_SIZE);
    }

    static StoreRetry fastRetry() {
        return new StoreRetry(2, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofSeconds(10));
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static byte[] sha256(InputStream in) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        byte[] buf = new byte[1 << 16];
        for (int n; (n = in.read(buf)) >= 0; ) {
            digest.update(buf, 0, n);
        }
        return digest.digest();
    }
}
