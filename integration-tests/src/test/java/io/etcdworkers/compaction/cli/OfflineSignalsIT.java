package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.testsupport.FaultProxy;
import io.etcdworkers.testsupport.FaultProxy.Fault;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.JarRun;
import io.etcdworkers.testsupport.Processes;
import io.etcdworkers.testsupport.S3Buckets;
import io.etcdworkers.testsupport.S3ProxyServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * SIGTERM to a worker (the real jar in its own JVM) while the offline engine folds: a delta's
 * download is held back by {@link FaultProxy} in front of a real S3 server, the signal arrives
 * while the fold waits for it. The worker exits 40 within the grace period, leaving no data dir,
 * no {@code .part}, an empty scratch dir, no etcd, and nothing new in the bucket.
 */
@Timeout(300)
class OfflineSignalsIT {
    private static final String BUCKET = "backups";
    private static final String PREFIX = "etcd-main";

    @TempDir
    Path dir;

    /** Apart from {@link #dir}: the S3 server still runs when the test looks for processes mentioning it. */
    @TempDir
    Path s3Dir;

    @ParameterizedTest
    @ValueSource(strings = {"restore", "compact"})
    void sigtermDuringTheFoldStopsCleanly(String command) throws Exception {
        try (S3ProxyServer s3 = S3ProxyServer.start(s3Dir);
                FaultProxy proxy = FaultProxy.start(s3.endpoint())) {
            s3.createBucket(BUCKET);
            S3Buckets.upload(s3, BUCKET, PREFIX, Fixtures.bucket("gzip"));
            List<String> before = keys(s3);
            proxy.inject(Fault.delay(Duration.ofSeconds(120)), "GET", ".*Incr-00002921-00003499.*", FaultProxy.ALWAYS);
            Path target = dir.resolve("data/new.etcd");
            Process worker = start(command, s3, proxy, target);

            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> !proxy.faulted().isEmpty());
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> Files.readString(dir.resolve("stderr")).contains("offline base folded"));
            long signalled = System.nanoTime();
            worker.destroy();

            assertThat(worker.waitFor(30, TimeUnit.SECONDS))
                    .as("stopped within the grace period")
                    .isTrue();
            String stderr = Files.readString(dir.resolve("stderr"));
            assertThat(worker.exitValue()).as(stderr).isEqualTo(ErrorCode.INTERRUPTED.exitCode());
            assertThat(Duration.ofNanos(System.nanoTime() - signalled)).isLessThan(Duration.ofSeconds(30));
            String result = Files.readString(dir.resolve("stdout"), StandardCharsets.UTF_8)
                    .strip();
            assertThat(new ObjectMapper().readTree(result).get("errorCode").asText())
                    .isEqualTo("INTERRUPTED");
            Processes.awaitNoneMentioning(dir);
            assertThat(target).doesNotExist();
            assertThat(target.resolveSibling("new.etcd.part")).doesNotExist();
            try (Stream<Path> scratch = Files.list(dir.resolve("scratch"))) {
                assertThat(scratch).as("scratch emptied").isEmpty();
            }
            assertThat(keys(s3)).isEqualTo(before);
        }
    }

    private Process start(String command, S3ProxyServer s3, FaultProxy proxy, Path target) throws Exception {
        Map<String, String> env = S3Buckets.env(s3, s3.credential(), dir.resolve("secret"));
        List<String> argv = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                JarRun.jar(command.equals("restore") ? "restore.jar" : "worker.jar")
                        .toString(),
                command,
                "--storage-provider=S3",
                "--store-container=" + BUCKET,
                "--store-prefix=" + PREFIX,
                "--store-endpoint-override=" + proxy.endpoint(),
                "--scratch-dir=" + dir.resolve("scratch"),
                "--engine=offline",
                "--max-fetchers=1"));
        if (command.equals("restore")) {
            argv.add("--data-dir=" + target);
        }
        ProcessBuilder builder = new ProcessBuilder(argv)
                .directory(dir.toFile())
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile());
        builder.environment().clear();
        builder.environment().putAll(env);
        return builder.start();
    }

    private static List<String> keys(S3ProxyServer s3) {
        return s3.client().listObjectsV2Paginator(b -> b.bucket(BUCKET)).contents().stream()
                .map(S3Object::key)
                .sorted()
                .toList();
    }
}
