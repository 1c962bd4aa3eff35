package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.GeneratedBucket;
import io.etcdworkers.testsupport.GeneratedBucket.Compression;
import io.etcdworkers.testsupport.Processes;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every way a restore must fail cleanly: its exit code, a message naming the snapshot and
 * revision, no etcd left running, no {@code .part} dir, and the target exactly as it was.
 */
@Timeout(300)
class RestoreFailuresIT {
    @TempDir
    Path dir;

    private Path target;
    private Path marker;

    @BeforeEach
    void existingTargetParent() throws IOException {
        target = dir.resolve("data/new.etcd");
        Files.createDirectories(target.getParent());
        marker = target.getParent().resolve("keep.txt");
        Files.writeString(marker, "untouched");
    }

    /** The replay engine unless {@code extra} names another: most faults here are the replay's (see OfflineRestoreIT). */
    /** This test's scratch etcd: a test before may have left one of its own still stopping. */
    private List<ProcessHandle> ownEtcd() {
        return Processes.mentioning(dir.resolve("scratch")).stream()
                .filter(p -> p.info().command().map(c -> c.endsWith("/etcd")).orElse(false))
                .toList();
    }

    private CommandRun restore(Path bucket, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "restore",
                "--store-container",
                bucket.toString(),
                "--data-dir",
                target.toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString()));
        if (Stream.of(extra).noneMatch(a -> a.startsWith("--engine"))) {
            args.add("--engine=replay");
        }
        args.addAll(List.of(extra));
        return CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                args.toArray(String[]::new));
    }

    private void assertFailedCleanly(CommandRun run, ErrorCode code, String... named) throws IOException {
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(code.exitCode());
        JsonNode result = run.result();
        assertThat(result.get("outcome").asText()).isEqualTo("failed");
        assertThat(result.get("errorCode").asText()).isEqualTo(code.name());
        assertThat(result.get("error").asText()).contains(named);
        Processes.awaitNoneMentioning(dir);
        try (Stream<Path> left = Files.list(target.getParent())) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .as("only the marker remains next to the target (the lock file is removed too)")
                    .containsExactly("keep.txt");
        }
        assertThat(Files.readString(marker)).isEqualTo("untouched");
        try (Stream<Path> scratch = Files.list(dir.resolve("scratch"))) {
            assertThat(scratch).as("scratch dirs removed").isEmpty();
        } catch (NoSuchFileException notCreated) {
            // failed before any scratch was needed
        }
    }

    @Test
    void gapIsRefusedBeforeAnythingStarts() throws IOException {
        Path bucket = Fixtures.copyBucket("gzip", dir.resolve("bucket"));
        Files.delete(bucket.resolve("v2/Incr-00001751-00002341-1795986610.gz"));

        assertFailedCleanly(
                restore(bucket), ErrorCode.BACKUP_INCONSISTENT, "1751..2341", "Incr-00001173-00001750-1795986609.gz");
    }

    @Test
    void flippedByteInADeltaIsAHashMismatch() throws IOException {
        Path bucket = Fixtures.copyBucket("plain", dir.resolve("bucket"));
        flip(bucket.resolve("v2/Incr-00002921-00003499-1795986611"), 30_000);

        assertFailedCleanly(restore(bucket), ErrorCode.HASH_MISMATCH, "Incr-00002921-00003499-1795986611");
        assertFailedCleanly(
                restore(bucket, "--engine=offline"), ErrorCode.HASH_MISMATCH, "Incr-00002921-00003499-1795986611");
    }

    @Test
    void nonEmptyTargetIsNeverTouched() throws IOException {
        Files.createDirectories(target.resolve("member"));
        Files.writeString(target.resolve("member/precious"), "old data");
        Path bucket = Fixtures.bucket("gzip");

        CommandRun run = restore(bucket);

        assertThat(run.exitCode()).isEqualTo(ErrorCode.TARGET_NOT_EMPTY.exitCode());
        assertThat(run.result().get("error").asText()).contains(target.toString(), "--force");
        assertThat(Files.readString(target.resolve("member/precious"))).isEqualTo("old data");
        Processes.awaitNoneMentioning(dir);
    }

    @Test
    void forceReplacesTheTargetOnlyOnceTheNewOneIsComplete() throws IOException {
        Files.createDirectories(target.resolve("member"));
        Files.writeString(target.resolve("member/precious"), "old data");

        CommandRun run = restore(Fixtures.bucket("zlib"), "--force");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(target.resolve("member/precious")).doesNotExist();
        assertThat(target.resolve("member/snap/db")).exists();
        assertThat(target.resolveSibling("new.etcd.replaced")).doesNotExist();
    }

    @Test
    void missingEtcdBinaryIsAClearUsageError() throws IOException {
        CommandRun run = restore(
                Fixtures.bucket("gzip"),
                "--etcd-bin-dir",
                dir.resolve("no-etcd-here").toString());

        assertFailedCleanly(run, ErrorCode.USAGE, "etcd");
        assertThat(run.result().get("error").asText()).contains("apt-get install etcd-server");
    }

    @Test
    void missingEtcdBinaryIsReportedBeforeTheTargetIsLookedAt() throws IOException {
        Files.createDirectories(target.resolve("member"));
        Files.writeString(target.resolve("member/precious"), "old data");

        // without --force this target would be refused as not empty: etcd is looked for first
        CommandRun run = restore(
                Fixtures.bucket("gzip"),
                "--etcd-bin-dir",
                dir.resolve("no-etcd-here").toString());

        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ErrorCode.USAGE.exitCode());
        assertThat(run.result().get("error").asText()).contains("etcd binary not found");
        assertThat(Files.readString(target.resolve("member/precious"))).isEqualTo("old data");
    }

    @Test
    void deltaThatDisappearsDuringTheRunFailsNamingIt() throws Exception {
        GeneratedBucket generated = GeneratedBucket.create(dir.resolve("bucket"), Compression.GZIP, 1);
        List<String> deltas = new ArrayList<>();
        for (int d = 0; d < 12; d++) {
            generated.hotKeys(20, 10, 2000);
            deltas.add(generated.cutDelta());
        }
        Path victim = generated.root().resolve(deltas.get(10));
        // one fetcher: delta 10 is only fetched once the first deltas are replayed, well after listing
        CompletableFuture<CommandRun> running =
                CompletableFuture.supplyAsync(() -> restore(generated.root(), "--max-fetchers", "1"));
        // this run's own etcd (on its scratch dir), started after the listing: not one a test before left stopping
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(() -> !Processes.mentioning(dir.resolve("scratch")).isEmpty());
        Files.delete(victim);

        CommandRun run = running.get(120, TimeUnit.SECONDS);

        assertFailedCleanly(run, ErrorCode.OBJECT_VANISHED, deltas.get(10));
    }

    @Test
    void etcdKilledMidReplayIsAnEtcdFailure() throws Exception {
        GeneratedBucket generated = GeneratedBucket.create(dir.resolve("bucket"), Compression.NONE, 2);
        for (int d = 0; d < 10; d++) {
            generated.hotKeys(50, 20, 1000);
            generated.cutDelta();
        }
        CompletableFuture<CommandRun> running = CompletableFuture.supplyAsync(() -> restore(generated.root()));
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> !ownEtcd().isEmpty());
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(() -> Files.exists(dir.resolve("scratch")) && hasDeltaDownloads(dir.resolve("scratch")));
        ownEtcd().forEach(ProcessHandle::destroyForcibly);

        CommandRun run = running.get(120, TimeUnit.SECONDS);

        assertFailedCleanly(run, ErrorCode.ETCD_FAILURE, "etcd");
    }

    @Test
    void hungEtcdIsDetectedByTheCallDeadline() throws Exception {
        GeneratedBucket generated = GeneratedBucket.create(dir.resolve("bucket"), Compression.NONE, 5);
        for (int d = 0; d < 10; d++) {
            generated.hotKeys(50, 20, 1000);
            generated.cutDelta();
        }
        CompletableFuture<CommandRun> running =
                CompletableFuture.supplyAsync(() -> restore(generated.root(), "--etcd-call-timeout", "3s"));
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> !ownEtcd().isEmpty());
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(() -> Files.exists(dir.resolve("scratch")) && hasDeltaDownloads(dir.resolve("scratch")));
        for (ProcessHandle etcd : ownEtcd()) {
            // SIGSTOP: the process lives but answers nothing, as a hung etcd would
            new ProcessBuilder("kill", "-STOP", Long.toString(etcd.pid()))
                    .start()
                    .waitFor();
        }

        CommandRun run = running.get(120, TimeUnit.SECONDS);

        assertFailedCleanly(run, ErrorCode.ETCD_FAILURE, "did not answer", "in time");
    }

    @Test
    void quotaExceededSaysWhichFlagsHelp() throws IOException {
        CommandRun run = restore(Fixtures.bucket("gzip"), "--embedded-etcd-quota-bytes", "3Mi");

        assertFailedCleanly(
                run,
                ErrorCode.ETCD_QUOTA_EXCEEDED,
                "--embedded-etcd-quota-bytes",
                "--defrag-every-events",
                "v2/Incr-",
                "revision");
    }

    @Test
    void secondWorkerOnTheSameTargetRefuses() throws IOException {
        try (FileChannel held = FileChannel.open(
                        target.resolveSibling("new.etcd.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = held.lock()) {
            assertThat(lock.isValid()).isTrue();
            CommandRun run = CompletableFuture.supplyAsync(() -> restore(Fixtures.bucket("gzip")))
                    .join();

            assertThat(run.exitCode()).isEqualTo(ErrorCode.TARGET_LOCKED.exitCode());
            assertThat(run.result().get("error").asText()).contains("another worker", target.toString());
        }
        assertThat(target).doesNotExist();
        assertThat(target.resolveSibling("new.etcd.part")).doesNotExist();
    }

    /**
     * Whether a delta has been downloaded yet. The walk races with etcd, which creates and removes
     * files under the scratch dir as it starts (its WAL dir's {@code .touch}): a file gone mid-walk
     * means "not yet", and the next poll walks again.
     */
    private static boolean hasDeltaDownloads(Path scratch) throws IOException {
        try (Stream<Path> files = Files.walk(scratch)) {
            return files.anyMatch(p -> p.getParent() != null
                    && p.getParent().getFileName().toString().equals("deltas"));
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof NoSuchFileException) {
                return false;
            }
            throw e;
        }
    }

    private static void flip(Path file, long position) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(position);
            int b = raf.read();
            raf.seek(position);
            raf.write(b ^ 0x01);
        }
    }
}
