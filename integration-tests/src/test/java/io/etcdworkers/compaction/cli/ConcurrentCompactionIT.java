package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.JarRun;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two compactions of one bucket at once, as two runs by hand would be (the launcher's CronJob
 * forbids concurrency and its Jobs refuse a second active one): both build the same revision in
 * scratch dirs of their own, both upload. The bucket gains one or two full snapshots of that
 * revision (two when their upload seconds differ; one name when they are the same second, the later
 * rename replacing the earlier), each restorable and exact alone, and the bucket restores exactly.
 */
@Timeout(600)
class ConcurrentCompactionIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData");

    @TempDir
    Path dir;

    @Test
    void twoCompactionsOfOneBucketAtOnceBothUploadTheSameRevisionAndTheBucketStaysExact() throws Exception {
        Path bucket = Fixtures.copyBucket("gzip", dir);
        List<String> before = CrashChecks.bucketFiles(bucket);
        Path scratch = dir.resolve("scratch");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch ready = new CountDownLatch(2);
        try {
            List<CompletableFuture<JarRun>> runs = new ArrayList<>();
            for (String name : List.of("a", "b")) {
                Path work = Files.createDirectories(dir.resolve("work-" + name));
                runs.add(CompletableFuture.supplyAsync(
                        () -> {
                            ready.countDown();
                            awaitQuietly(ready);
                            return JarRun.run(
                                    JarRun.jar("worker.jar"),
                                    Map.of("PATH", System.getenv("PATH")),
                                    work,
                                    JVM,
                                    "compact",
                                    "--store-container",
                                    bucket.toString(),
                                    "--scratch-dir",
                                    scratch.toString());
                        },
                        pool));
            }
            for (CompletableFuture<JarRun> future : runs) {
                JarRun run = future.get(300, TimeUnit.SECONDS);
                assertThat(run.exitCode()).as(run.stderr()).isZero();
                JsonNode result = JSON.readTree(run.stdout().strip());
                if (result.get("outcome").asText().equals("skipped")) {
                    continue; // it listed after the other had committed: nothing to compact
                }
                CrashChecks.assertExact(result, "a concurrent compaction's result");
            }
        } finally {
            pool.shutdownNow();
        }

        List<String> added = CrashChecks.assertOnlyRestorableFullSnapshotsAdded(bucket, before, dir, false);
        System.out.printf("CONCURRENT compactions added: %s%n", added);
        assertThat(added).as("full snapshots of the same revision").hasSizeBetween(1, 2);
        assertThat(CrashChecks.entries(scratch))
                .as("left in the shared scratch dir")
                .isEmpty();

        CommandRun restore = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                "restore",
                "--store-container",
                bucket.toString(),
                "--data-dir",
                dir.resolve("data/new.etcd").toString(),
                "--scratch-dir",
                dir.resolve("scratch-restore").toString());
        assertThat(restore.exitCode()).as(restore.stderr()).isZero();
        CrashChecks.assertExact(restore.result(), "a restore of the bucket after both");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
