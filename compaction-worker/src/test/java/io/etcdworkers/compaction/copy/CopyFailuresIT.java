package io.etcdworkers.compaction.copy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.FaultProxy;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.S3Buckets;
import io.etcdworkers.testsupport.S3ProxyServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@code copy} from Local into a real S3 server (S3Proxy) and what it does when things go wrong:
 * a source object rewritten while it is copied (its answer held back by {@link FaultProxy} while the
 * test rewrites it) is exit 24 and the target holds nothing of it; a target that refuses writes
 * (S3 answering 403 to uploads; a Local directory made immutable) is exit 25 naming the object, with
 * nothing visible.
 */
@Timeout(300)
class CopyFailuresIT {
    static final String BUCKET = "copy-target";

    @TempDir
    static Path serverDir;

    static S3ProxyServer s3;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        s3 = S3ProxyServer.start(serverDir);
        s3.createBucket(BUCKET);
    }

    @AfterAll
    static void stop() {
        if (s3 != null) {
            s3.close();
        }
    }

    private Map<String, Long> s3Objects(String prefix) {
        return s3.client().listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix(prefix)).contents().stream()
                .collect(Collectors.toMap(S3Object::key, S3Object::size));
    }

    private Map<String, String> env() {
        Map<String, String> env = new HashMap<>(S3Buckets.env(s3, s3.credential(), dir.resolve("secret")));
        // the same server on both sides, through the source's own variables
        Map.copyOf(env).forEach((name, value) -> {
            if (name.startsWith("AWS_")) {
                env.put("SOURCE_" + name, value);
            }
        });
        return env;
    }

    @Test
    void localToS3CopiesEveryObjectWithItsSize() {
        Path source = CopyRuns.localSource(dir.resolve("src"), "etcd-main", "zlib");
        CommandRun copy = CopyRuns.copy(
                env(),
                dir,
                List.of(
                        "--storage-provider=S3",
                        "--store-container=" + BUCKET,
                        "--store-prefix=local-to-s3",
                        "--store-endpoint-override=" + s3.endpoint(),
                        "--source-storage-provider=Local",
                        "--source-store-container=" + source,
                        "--source-store-prefix=etcd-main"));

        assertThat(copy.exitCode()).as(copy.stderr()).isZero();
        Map<String, Long> expected = new HashMap<>();
        CopyRuns.files(source.resolve("etcd-main")).forEach((name, size) -> expected.put("local-to-s3/" + name, size));
        assertThat(s3Objects("local-to-s3/")).isEqualTo(expected);
        assertThat(copy.stdout() + copy.stderr()).doesNotContain(s3.credential());
    }

    @Test
    void aSourceObjectRewrittenWhileCopiedIsExit24AndNotInTheTarget() throws Exception {
        String prefix = "changing";
        S3Buckets.upload(s3, BUCKET, prefix, Fixtures.bucket("gzip"));
        String changed = "Incr-00001751-00002341-1795986610.gz";
        try (FaultProxy proxy = FaultProxy.start(s3.endpoint())) {
            proxy.inject(FaultProxy.Fault.delay(Duration.ofSeconds(4)), "GET", ".*" + changed + ".*", 1);
            Path target = dir.resolve("dst");
            CompletableFuture<CommandRun> run = CompletableFuture.supplyAsync(() -> CopyRuns.copy(
                    env(),
                    dir,
                    List.of(
                            "--storage-provider=Local",
                            "--store-container=" + target,
                            "--store-prefix=moved",
                            "--source-storage-provider=S3",
                            "--source-store-container=" + BUCKET,
                            "--source-store-prefix=" + prefix,
                            "--source-store-endpoint-override=" + proxy.endpoint())));
            await().atMost(Duration.ofSeconds(60)).until(() -> !proxy.faulted().isEmpty());
            s3.client()
                    .putObject(b -> b.bucket(BUCKET).key(prefix + "/v2/" + changed), RequestBody.fromBytes(new byte[] {1
                    }));

            CommandRun copy = run.get(120, TimeUnit.SECONDS);

            assertThat(copy.exitCode()).as(copy.stderr()).isEqualTo(24);
            assertThat(copy.result().get("errorCode").asText()).isEqualTo("SOURCE_CHANGED");
            assertThat(copy.result().get("error").asText()).contains(changed);
            assertThat(CopyRuns.files(target.resolve("moved")))
                    .doesNotContainKey("v2/" + changed)
                    .hasSize(10);
            assertThat(CopyRuns.files(target))
                    .allSatisfy((name, size) -> assertThat(name).doesNotContain(".part"));
        }
    }

    @Test
    void anS3TargetThatRefusesUploadsIsExit25WithNothingVisible() {
        Path source = CopyRuns.localSource(dir.resolve("src"), "etcd-main", "plain");
        try (FaultProxy proxy = FaultProxy.start(s3.endpoint())) {
            proxy.inject(FaultProxy.Fault.status(403), "PUT|POST", ".*", FaultProxy.ALWAYS);
            CommandRun copy = CopyRuns.copy(
                    env(),
                    dir,
                    List.of(
                            "--storage-provider=S3",
                            "--store-container=" + BUCKET,
                            "--store-prefix=refused",
                            "--store-endpoint-override=" + proxy.endpoint(),
                            "--source-store-container=" + source,
                            "--source-store-prefix=etcd-main",
                            "--source-storage-provider=Local"));

            assertThat(copy.exitCode()).as(copy.stderr()).isEqualTo(25);
            assertThat(copy.result().get("errorCode").asText()).isEqualTo("STORE_WRITE_REFUSED");
            assertThat(copy.result().get("retryable").asBoolean()).isFalse();
            assertThat(copy.result().get("error").asText()).contains("refused/v2/");
        }
        assertThat(s3Objects("refused/")).isEmpty();
    }

    @Test
    void anImmutableLocalTargetIsExit25WithNothingVisible() throws IOException, InterruptedException {
        Path source = CopyRuns.localSource(dir.resolve("src"), "etcd-main", "plain");
        Path v2 = Files.createDirectories(dir.resolve("dst/kept/v2"));
        immutable(v2, true);
        try {
            CommandRun copy = CopyRuns.copy(
                    Map.of(),
                    dir,
                    List.of(
                            "--store-container=" + dir.resolve("dst"),
                            "--store-prefix=kept",
                            "--source-store-container=" + source,
                            "--source-store-prefix=etcd-main"));

            assertThat(copy.exitCode()).as(copy.stderr()).isEqualTo(25);
            assertThat(copy.result().get("error").asText()).contains("kept/v2/");
        } finally {
            immutable(v2, false);
        }
        assertThat(CopyRuns.files(dir.resolve("dst"))).isEmpty();
    }

    /** Root writes anywhere: the immutable flag stops it; anyone else is stopped by the mode. */
    private static void immutable(Path path, boolean on) throws IOException, InterruptedException {
        boolean root = "0"
                .equals(new String(new ProcessBuilder("id", "-u")
                                .start()
                                .getInputStream()
                                .readAllBytes())
                        .strip());
        if (!root) {
            path.toFile().setWritable(on ? false : true);
            return;
        }
        List<String> command = new ArrayList<>(List.of("chattr", on ? "+i" : "-i", path.toString()));
        Process chattr = new ProcessBuilder(command).inheritIO().start();
        assertThat(chattr.waitFor()).as("chattr").isZero();
    }
}
