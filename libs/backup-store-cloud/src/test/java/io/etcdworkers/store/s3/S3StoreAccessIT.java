package io.etcdworkers.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.testsupport.S3ProxyServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * Who may use a bucket: credentials from etcd-backup-restore's Secret layouts work against a
 * real S3 server (S3Proxy), and wrong credentials or a missing bucket fail clearly.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class S3StoreAccessIT {
    private static final String BUCKET = "backups";
    private static final String WRONG_SECRET = "wrong-secret-do-not-print-7f3a9c";

    @TempDir
    static Path serverDir;

    static S3ProxyServer s3;

    @TempDir
    Path secretDir;

    @BeforeAll
    static void startServer() {
        s3 = S3ProxyServer.start(serverDir);
        s3.createBucket(BUCKET);
    }

    @AfterAll
    static void stopServer() {
        s3.close();
    }

    @Test
    void credentialsFromAOneFilePerKeyDirectoryWork() throws IOException {
        write("accessKeyID", s3.identity());
        write("secretAccessKey", s3.credential() + "\n");
        write("region", "eu-west-1");
        write("endpoint", s3.endpoint().toString());
        write("s3ForcePathStyle", "true");

        S3StoreConfig config = factory(
                        Map.of("AWS_APPLICATION_CREDENTIALS", secretDir.toString(), "STORAGE_CONTAINER", BUCKET))
                .create(Optional.empty(), Optional.empty());

        assertRoundTrip(config, "dir/object");
    }

    @Test
    void credentialsFromAJsonFileWork() throws IOException {
        Path json = write(
                "secret.json",
                "{\"accessKeyID\":\"" + s3.identity() + "\",\"secretAccessKey\":\""
                        + s3.credential() + "\",\"region\":\"eu-west-1\",\"s3ForcePathStyle\":true,"
                        + "\"bucketName\":\"ignored\"}");

        S3StoreConfig config = factory(Map.of("AWS_APPLICATION_CREDENTIALS_JSON", json.toString()))
                .create(Optional.of(BUCKET), Optional.of(s3.endpoint()));

        assertRoundTrip(config, "json/object");
    }

    @Test
    void theEndpointFlagWinsOverTheFilesEndpoint() throws IOException {
        write("accessKeyID", s3.identity());
        write("secretAccessKey", s3.credential());
        write("region", "eu-west-1");
        // Nothing listens on port 1: the store only works if the flag replaced this endpoint.
        write("endpoint", "http://127.0.0.1:1");
        write("s3ForcePathStyle", "true");

        S3StoreConfig config = factory(Map.of("AWS_APPLICATION_CREDENTIALS", secretDir.toString()))
                .create(Optional.of(BUCKET), Optional.of(s3.endpoint()));

        assertThat(config.endpointOverride()).contains(s3.endpoint());
        assertRoundTrip(config, "flag/object");
    }

    @Test
    void aWrongSecretIsStoreNotFoundNamingBucketAndEndpointButNotTheSecret() {
        try (S3ObjectStore store = store(BUCKET, s3.identity(), WRONG_SECRET)) {
            for (Runnable call :
                    new Runnable[] {() -> store.list("etcd/"), () -> store.open("etcd/x"), () -> commitSomething(store)
                    }) {
                assertThatThrownBy(call::run).isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.STORE_NOT_FOUND);
                    assertThat(e.getMessage())
                            .contains(
                                    "\"" + BUCKET + "\"", s3.endpoint().toString(), "secret access key does not match")
                            .doesNotContain(WRONG_SECRET);
                    assertThat(causeChainText(e)).doesNotContain(WRONG_SECRET);
                });
            }
        }
    }

    @Test
    void anUnknownAccessKeyIsStoreNotFound() {
        try (S3ObjectStore store = store(BUCKET, "nobody", WRONG_SECRET)) {
            assertThatThrownBy(() -> store.list("")).isInstanceOfSatisfying(WorkerException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.STORE_NOT_FOUND);
                assertThat(e.getMessage())
                        .contains("\"" + BUCKET + "\"", s3.endpoint().toString(), "access denied")
                        .doesNotContain(WRONG_SECRET);
            });
        }
    }

    @Test
    void aMissingBucketIsStoreNotFoundSayingSo() {
        try (S3ObjectStore store = store("no-such-bucket", s3.identity(), s3.credential())) {
            for (Runnable call :
                    new Runnable[] {() -> store.list("etcd/"), () -> store.open("etcd/x"), () -> commitSomething(store)
                    }) {
                assertThatThrownBy(call::run).isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.STORE_NOT_FOUND);
                    assertThat(e.getMessage())
                            .contains("\"no-such-bucket\"", s3.endpoint().toString(), "bucket does not exist");
                });
            }
        }
    }

    private static S3StoreConfigFactory factory(Map<String, String> env) {
        // Never consult the SDK's region chain (profile files, instance metadata) in tests.
        return new S3StoreConfigFactory(env, Optional::empty);
    }

    private static S3ObjectStore store(String bucket, String identity, String secret) {
        return new S3ObjectStore(S3StoreConfig.of(
                        bucket,
                        s3.region(),
                        Optional.of(s3.endpoint()),
                        true,
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(identity, secret)))
                .withRetry(new S3StoreConfig.Retry(2, Duration.ofMillis(1), Duration.ofMillis(5))));
    }

    private static void commitSomething(ObjectStore store) {
        try (ObjectWriter writer = store.create("etcd/new")) {
            writer.out().write(1);
            writer.commit();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void assertRoundTrip(S3StoreConfig config, String key) throws IOException {
        assertThat(config.toString()).doesNotContain(s3.credential());
        try (S3ObjectStore store = new S3ObjectStore(config)) {
            try (ObjectWriter writer = store.create(key)) {
                writer.out().write(key.getBytes());
                writer.commit();
            }
            assertThat(store.list(key)).extracting(ObjectInfo::key).containsExactly(key);
            try (InputStream in = store.open(key)) {
                assertThat(in.readAllBytes()).isEqualTo(key.getBytes());
            }
        }
    }

    private static String causeChainText(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            text.append(t).append('\n');
        }
        return text.toString();
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(secretDir.resolve(name), content);
    }
}
