package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.etcd.SnapshotRestorer;
import io.etcdworkers.files.FileTree;
import io.etcdworkers.testsupport.EtcdTestEnvironment;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.JarRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM to a worker (the real jar in its own JVM) while its scratch etcd starts: the offline
 * engine's verifying etcd and the replay's scratch etcd, in a restore (onto an existing data dir,
 * with {@code --force}) and in a compaction. The moments: the worker's log says etcd is starting
 * (the process is spawned next), and etcd's process exists. Each ends with exit 40 and an
 * INTERRUPTED result, no process of the run left, nothing of the run in the scratch dir (an etcd
 * spawned as the JVM began to exit once recreated its deleted data dir there, a 64 MB WAL), the
 * old data dir byte for byte as it was with nothing beside it, and the bucket as it was.
 * {@code -Dsigterm.repeats=N} runs every case N times.
 */
@Timeout(900)
class EtcdStartSignalsIT {
    private static final int REPEATS = Integer.getInteger("sigterm.repeats", 1);
    private static final List<String> JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData");

    enum Mode {
        RESTORE_OFFLINE("restore", "offline"),
        RESTORE_REPLAY("restore", "replay"),
        COMPACT_OFFLINE("compact", "offline"),
        COMPACT_REPLAY("compact", "replay");

        final String command;
        final String engine;

        Mode(String command, String engine) {
            this.command = command;
            this.engine = engine;
        }

        boolean restore() {
            return command.equals("restore");
        }
    }

    enum Moment {
        /** The log line written just before etcd's process is spawned. */
        ETCD_STARTING,
        /** etcd's process exists (it may not have opened its data dir yet). */
        ETCD_SPAWNED
    }

    @TempDir
    static Path dir;
    /** The data dir a restore with --force would replace: it must come out of each run as it went in. */
    private static Path oldDataDir;

    private static int runs;

    @BeforeAll
    static void oldDataDir() {
        oldDataDir = dir.resolve("old.etcd");
        EtcdBinaries binaries =
                EtcdBinaries.locate(Optional.of(EtcdTestEnvironment.onPath().binDir()), "");
        new SnapshotRestorer(binaries, dir.resolve("scratch-old"), SnapshotRestorer.DEFAULT_TIMEOUT)
                .restore(new SnapshotRestorer.Request(
                        EtcdTestEnvironment.fullSnapshot(),
                        EtcdMember.onFreeLoopbackPort(),
                        oldDataDir,
                        Optional.empty(),
                        false));
    }

    @TestFactory
    Stream<DynamicTest> sigtermWhileTheScratchEtcdStartsLeavesNothing() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Mode mode : Mode.values()) {
            for (Moment moment : Moment.values()) {
                IntStream.rangeClosed(1, REPEATS)
                        .forEach(i -> tests.add(DynamicTest.dynamicTest(
                                mode + " at " + moment + " #" + i, () -> signalAndCheck(mode, moment))));
            }
        }
        return tests.stream();
    }

    private void signalAndCheck(Mode mode, Moment moment) throws Exception {
        Path run = Files.createDirectories(dir.resolve(String.format("run-%02d", ++runs)));
        Path work = Files.createDirectories(run.resolve("work"));
        Path scratch = run.resolve("scratch");
        Path target = run.resolve("data/new.etcd");
        Path bucket = Fixtures.copyBucket("gzip", run);
        Map<String, String> bucketBefore = CrashChecks.treeDigest(bucket);
        List<String> args = new ArrayList<>(List.of(
                mode.command,
                "--store-container",
                bucket.toString(),
                "--scratch-dir",
                scratch.toString(),
                "--engine=" + mode.engine));
        if (mode.restore()) {
            FileTree.copy(oldDataDir, target);
            args.addAll(List.of("--data-dir", target.toString(), "--force"));
        }

        Process worker = start(mode, args, run);
        Path stderr = run.resolve("stderr");
        try {
            Awaitility.await(mode + " at " + moment)
                    .atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(2))
                    .until(() -> !worker.isAlive() || reached(moment, stderr, scratch));
            assertThat(worker.isAlive())
                    .as("the worker ran until the moment: %s", Files.readString(stderr))
                    .isTrue();
            worker.destroy(); // SIGTERM
            assertThat(worker.waitFor(30, TimeUnit.SECONDS))
                    .as("stopped within the grace period")
                    .isTrue();
        } finally {
            worker.destroyForcibly();
        }

        String log = Files.readString(stderr, StandardCharsets.UTF_8);
        assertThat(worker.exitValue()).as(log).isEqualTo(ErrorCode.INTERRUPTED.exitCode());
        String result =
                Files.readString(run.resolve("stdout"), StandardCharsets.UTF_8).strip();
        assertThat(new ObjectMapper().readTree(result).get("errorCode").asText())
                .as(result)
                .isEqualTo("INTERRUPTED");
        CrashChecks.awaitNoProcessUnder(run);
        try (Stream<Path> left = Files.walk(scratch)) {
            assertThat(left.filter(p -> !p.equals(scratch))
                            .map(p -> scratch.relativize(p).toString()))
                    .as("left in the scratch dir; the log: %s", log)
                    .isEmpty();
        }
        assertThat(CrashChecks.entries(work)).as("left in the working dir").isEmpty();
        assertThat(CrashChecks.treeDigest(bucket)).as("the bucket").isEqualTo(bucketBefore);
        if (mode.restore()) {
            assertThat(CrashChecks.treeDigest(target))
                    .as("the old data dir")
                    .isEqualTo(CrashChecks.treeDigest(oldDataDir));
            assertThat(CrashChecks.entries(target.getParent()))
                    .as("beside the data dir")
                    .containsExactly("new.etcd");
        }
        String[] lines = log.strip().split("\n");
        System.out.printf("SIGTERM %s at %s: %s%n", mode, moment, lines[lines.length - 1]);
        FileTree.delete(run);
    }

    private static boolean reached(Moment moment, Path stderr, Path scratch) throws Exception {
        return switch (moment) {
            case ETCD_STARTING -> Files.readString(stderr).contains("etcd starting");
            case ETCD_SPAWNED ->
                ProcessHandle.allProcesses()
                        .anyMatch(p -> p.info()
                                .commandLine()
                                .filter(c -> c.contains("--listen-client-urls") && c.contains(scratch.toString()))
                                .isPresent());
        };
    }

    private static Process start(Mode mode, List<String> args, Path run) throws Exception {
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(JVM);
        command.addAll(List.of(
                "-jar",
                JarRun.jar(mode.restore() ? "restore.jar" : "worker.jar").toString()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(run.resolve("work").toFile())
                .redirectOutput(run.resolve("stdout").toFile())
                .redirectError(run.resolve("stderr").toFile());
        builder.environment().clear();
        builder.environment().put("PATH", System.getenv("PATH"));
        return builder.start();
    }
}
