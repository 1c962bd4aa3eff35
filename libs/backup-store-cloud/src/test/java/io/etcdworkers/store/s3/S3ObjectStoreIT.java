package io.etcdworkers.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.testsupport.S3ProxyServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/** {@link S3ObjectStore} against a real S3 server (S3Proxy): listing, reads and writes. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class S3ObjectStoreIT {
    private static final AtomicInteger BUCKETS = new AtomicInteger();

    @TempDir
    static Path serverDir;

    static S3ProxyServer s3;

    private String bucket;
    private S3ObjectStore store;

    @BeforeAll
    static void startServer() {
        s3 = S3ProxyServer.start(serverDir);
    }

    @AfterAll
    static void stopServer() {
        s3.close();
    }

    @BeforeEach
    void newBucket() {
        bucket = "bucket-" + BUCKETS.incrementAndGet();
        s3.createBucket(bucket);
        store = new S3ObjectStore(S3StoreConfig.of(
                        bucket,
                        s3.region(),
                        Optional.of(s3.endpoint()),
                        true,
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(s3.identity(), s3.credential())))
                .withPartSize(S3StoreConfig.MIN_PART_SIZE));
    }

    @Test
    void listsEveryPageAndStaysOutOfSiblingPrefixes() {
        IntStream.range(0, 1100)
                .parallel()
                .forEach(i -> put("etcd/v2/Incr-" + String.format("%08d", i), "x".repeat(i % 7)));
        put("etcd-other/v2/Full-00000000-00000001-1", "sibling");

        List<ObjectInfo> listed = store.list("etcd/");

        assertThat(listed).hasSize(1100);
        assertThat(listed)
                .extracting(ObjectInfo::key)
                .doesNotHaveDuplicates()
                .allMatch(k -> k.startsWith("etcd/v2/Incr-"));
        assertThat(listed)
                .filteredOn(o -> o.key().endsWith("00000013"))
                .singleElement()
                .satisfies(o -> assertThat(o.size()).isEqualTo(13 % 7));
    }

    @Test
    void writesFiftyMegabytesInPartsAndReadsThemBackIdentically() throws Exception {
        String key = "etcd/v2/Full-00000000-00000100-1700000000.gz";
        byte[] chunk = new byte[1024 * 1024 + 7];
        SplittableRandom random = new SplittableRandom(42);
        MessageDigest written = sha256();
        long size = 50L * 1000 * 1000;
        try (ObjectWriter writer = store.create(key)) {
            OutputStream out = writer.out();
            for (long left = size; left > 0; left -= chunk.length) {
                random.nextBytes(chunk);
                int n = (int) Math.min(left, chunk.length);
                out.write(chunk, 0, n);
                written.update(chunk, 0, n);
            }
            out.close();

            assertThat(store.list("etcd/")).as("nothing visible before commit").isEmpty();
            assertThat(pendingUploads()).as("parts went up while writing").isEqualTo(1);

            ObjectInfo info = writer.commit();
            assertThat(info.key()).isEqualTo(key);
            assertThat(info.size()).isEqualTo(size);
        }
        assertThat(pendingUploads()).isZero();
        assertThat(store.list("etcd/"))
                .extracting(ObjectInfo::key, ObjectInfo::size)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(key, size));
        try (InputStream in = store.open(key)) {
            assertThat(sha256Hex(in)).isEqualTo(HexFormat.of().formatHex(written.digest()));
        }
    }

    @Test
    void writesASmallObjectWithOnePutAtCommit() throws IOException {
        byte[] content = "delta content".getBytes();
        try (ObjectWriter writer = store.create("etcd/v2/Incr-1")) {
            writer.out().write(content);
            assertThat(pendingUploads()).as("no multipart upload for one part").isZero();
            assertThat(store.list("etcd/")).isEmpty();
            assertThat(writer.commit().size()).isEqualTo(content.length);
        }
        try (InputStream in = store.open("etcd/v2/Incr-1")) {
            assertThat(in.readAllBytes()).isEqualTo(content);
        }
    }

    @Test
    void writesAnEmptyObject() throws IOException {
        try (ObjectWriter writer = store.create("empty")) {
            assertThat(writer.commit().size()).isZero();
        }
        try (InputStream in = store.open("empty")) {
            assertThat(in.readAllBytes()).isEmpty();
        }
    }

    @Test
    void aWriterClosedWithoutCommitLeavesNoObjectAndNoUpload() throws IOException {
        String key = "etcd/v2/Full-00000000-00000200-1700000001";
        try (ObjectWriter writer = store.create(key)) {
            writer.out().write(new byte[(int) (2 * S3StoreConfig.MIN_PART_SIZE + 3)]);
            assertThat(pendingUploads()).isEqualTo(1);
        }
        assertThat(pendingUploads()).isZero();
        assertThat(store.list("")).isEmpty();
        assertThatThrownBy(() -> s3.client().headObject(b -> b.bucket(bucket).key(key)))
                .isInstanceOf(NoSuchKeyException.class);
    }

    @Test
    void readsRangesAndWholeObjectsAsStreams() throws IOException {
        byte[] content = new byte[3 * 1024 * 1024 + 17];
        new SplittableRandom(7).nextBytes(content);
        s3.client().putObject(b -> b.bucket(bucket).key("obj"), RequestBody.fromBytes(content));

        try (InputStream in = store.openRange("obj", 1000, 5000)) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(content, 1000, 6000));
        }
        try (InputStream in = store.openRange("obj", content.length - 32, 32)) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(content, content.length - 32, content.length));
        }
        try (InputStream in = store.openRange("obj", 5, 0)) {
            assertThat(in.read()).isEqualTo(-1);
        }
        try (InputStream in = store.open("obj")) {
            byte[] head = in.readNBytes(100);
            assertThat(head).isEqualTo(Arrays.copyOf(content, 100));
            // Closed after a prefix: exercises the early-close (abort) path of the stream.
        }
        try (InputStream in = store.open("obj")) {
            assertThat(in.readAllBytes()).isEqualTo(content);
        }
    }

    @Test
    void aRangePastTheEndIsATruncatedObject() {
        put("short", "0123456789");

        assertThatThrownBy(() -> store.openRange("short", 4, 10).close())
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.TRUNCATED_OBJECT);
                    assertThat(e.getMessage()).contains("\"short\"", "10 bytes", bucket);
                });
        assertThatThrownBy(() -> store.openRange("short", 20, 5).close())
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TRUNCATED_OBJECT));
    }

    @Test
    void aMissingObjectHasVanished() {
        for (var read : List.<Runnable>of(
                () -> store.open("gone"), () -> store.openRange("gone", 0, 10), () -> store.openRange("gone", 0, 0))) {
            assertThatThrownBy(read::run).isInstanceOfSatisfying(WorkerException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.OBJECT_VANISHED);
                assertThat(e.getMessage())
                        .contains("\"gone\"", bucket, s3.endpoint().toString());
            });
        }
    }

    private void put(String key, String content) {
        s3.client().putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(content));
    }

    private int pendingUploads() {
        return s3.client().listMultipartUploads(b -> b.bucket(bucket)).uploads().size();
    }

    private static MessageDigest sha256() throws NoSuchAlgorithmException {
        return MessageDigest.getInstance("SHA-256");
    }

    private static String sha256Hex(InputStream in) throws Exception {
        MessageDigest digest = sha256();
        try (DigestInputStream digesting = new DigestInputStream(in, digest)) {
            digesting.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
