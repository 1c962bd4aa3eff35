package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.rebuild.Rebuilder;
import io.etcdworkers.testsupport.GeneratedBucket;
import io.etcdworkers.testsupport.GeneratedBucket.Compression;
import io.etcdworkers.testsupport.Processes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker as a Job runs it (the real jar in its own JVM) stopped by signals mid-replay:
 * SIGTERM stops it within the grace period with exit code 40, etcd gone and nothing partial
 * left; after SIGKILL the next run cleans up what the killed one left and succeeds.
 */
@Timeout(300)
class RestoreSignalsIT {
    @TempDir
    static Path bucketDir;

    @TempDir
    Path dir;

    private static Path bucket;

    @BeforeAll
    static void longEnoughToInterrupt() {
        GeneratedBucket generated = GeneratedBucket.create(bucketDir.resolve("long"), Compression.GZIP, 4);
        for (int d = 0; d < 20; d++) {
            generated.hotKeys(100, 15, 600);
            generated.cutDelta();
        }
        bucket = generated.root();
    }

    private Process start(Path target) throws IOException {
        return start(target, "replay");
    }

    private Process start(Path target, String engine) throws IOException {
        String jar = System.getProperty("worker.jar");
        return new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-jar",
                        jar,
                        "restore",
                        "--store-container",
                        bucket.toString(),
                        "--data-dir",
                        target.toString(),
                        "--scratch-dir",
                        dir.resolve("scratch").toString(),
                        "--progress-interval",
                        "1s",
                        "--engine=" + engine))
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile())
                .start();
    }

    private void awaitReplaying() {
        Awaitility.await()
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> Files.readString(dir.resolve("stderr")).contains("replay deltas="));
    }

    @Test
    void sigtermStopsCleanlyWithItsOwnExitCode() throws Exception {
        Path target = dir.resolve("data/new.etcd");
        Process worker = start(target);
        awaitReplaying();

        long signalled = System.nanoTime();
        worker.destroy();
        assertThat(worker.waitFor(30, TimeUnit.SECONDS))
                .as("stopped within the grace period")
                .isTrue();

        assertThat(worker.exitValue())
                .as(Files.readString(dir.resolve("stderr")))
                .isEqualTo(ErrorCode.INTERRUPTED.exitCode());
        assertThat(Duration.ofNanos(System.nanoTime() - signalled)).isLessThan(Duration.ofSeconds(30));
        String result =
                Files.readString(dir.resolve("stdout"), StandardCharsets.UTF_8).strip();
        assertThat(new ObjectMapper().readTree(result).get("errorCode").asText())
                .isEqualTo("INTERRUPTED");
        assertNothingLeft(target);
    }

    @Test
    void afterSigkillTheNextRunCleansUpAndSucceeds() throws Exception {
        Path target = dir.resolve("data/new.etcd");
        Process worker = start(target);
        awaitReplaying();

        worker.destroyForcibly();
        assertThat(worker.waitFor(30, TimeUnit.SECONDS)).isTrue();
        Processes.awaitNoneMentioning(dir);
        // killed mid-replay: what it left is the verifying etcd's data dir in its scratch dir; the
        // target volume got nothing yet (<data-dir>.part is written only after the verification)
        try (Stream<Path> left = Files.walk(dir.resolve("scratch"), 2)) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .as("the killed run could not clean up")
                    .contains(Rebuilder.VERIFY_DATA_DIR);
        }
        assertThat(target.resolveSibling("new.etcd.part")).doesNotExist();
        assertThat(scratchEntries()).as("the killed run's scratch dir").anyMatch(n -> n.startsWith("restore-"));

        // the rerun's engine does not matter to what it must clean up; the offline one takes seconds
        // where replaying the 30,000 revisions again took about a minute and a half
        Process second = start(target, "offline");
        assertThat(second.waitFor(240, TimeUnit.SECONDS)).isTrue();

        assertThat(second.exitValue())
                .as(Files.readString(dir.resolve("stderr")))
                .isZero();
        assertThat(target.resolve("member/snap/db")).exists();
        assertThat(target.resolveSibling("new.etcd.part")).doesNotExist();
        assertThat(target.resolveSibling("new.etcd.lock")).doesNotExist();
        assertThat(scratchEntries())
                .as("the rerun removed the killed run's scratch dir, then its own")
                .isEmpty();
    }

    private List<String> scratchEntries() throws IOException {
        try (Stream<Path> entries = Files.list(dir.resolve("scratch"))) {
            return entries.map(p -> p.getFileName().toString()).toList();
        }
    }

    private void assertNothingLeft(Path target) throws IOException {
        Processes.awaitNoneMentioning(dir);
        assertThat(target).doesNotExist();
        assertThat(target.resolveSibling("new.etcd.part")).doesNotExist();
        try (Stream<Path> scratch = Files.list(dir.resolve("scratch"))) {
            assertThat(scratch).isEmpty();
        }
    }
}
