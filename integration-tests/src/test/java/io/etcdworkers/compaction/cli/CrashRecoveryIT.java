package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL of the worker (the real jar in its own JVM, as a plain process) at 20 random moments
 * spread over the phases of a restore and a compaction, both engines: each moment is a phase's
 * log line plus a random delay. After each kill: none of its processes is left, the target is
 * untouched (the old data dir) or complete (a real etcd serves the fixture's exact keyspace),
 * the bucket holds nothing new but complete, restorable full snapshots; then the same command
 * again exits 0, is exact and leaves nothing behind. {@code -Dcrash.seed=N} replays a run.
 *
 * <p>And SIGTERM (a Job deleted, a node drained) at the moments of a restore found by its log:
 * during the base's download, the fold, the verification and the placing. Each ends with exit 40
 * and result {@code INTERRUPTED} within the grace period, no process of the run, nothing in the
 * scratch or working dir, nothing beside the data dir, and the data dir the old one untouched or
 * the new one complete.
 */
@Timeout(900)
class CrashRecoveryIT {
    static final long SEED = Long.getLong("crash.seed", System.nanoTime());
    private static final int MAX_DELAY_MS = 300;
    /** etcdctl restores the fixture's database in about 100 ms: a kill meant for it must come sooner. */
    private static final int MAX_TOOL_DELAY_MS = 80;

    private static final String TOOL_STARTS = "snapshot restore starting";
    private static final List<String> JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData");

    /** What runs, and the log lines after which it may be killed (each the start of a phase). */
    enum Mode {
        RESTORE_OFFLINE(
                true,
                "offline",
                "phase done phase=select",
                "phase done phase=fetchBase",
                TOOL_STARTS,
                "etcd started",
                "phase done phase=stopEtcd"),
        RESTORE_REPLAY(
                true,
                "replay",
                "phase done phase=select",
                TOOL_STARTS,
                "etcd started",
                "phase done phase=replay",
                "phase done phase=verify"),
        COMPACT_OFFLINE(
                false,
                "offline",
                "phase done phase=fetchBase",
                "uploading snapshot",
                "etcd started",
                "final compaction",
                "uploaded snapshot"),
        COMPACT_REPLAY(
                false,
                "replay",
                TOOL_STARTS,
                "etcd started",
                "phase done phase=replay",
                "snapshot streamed",
                "uploading snapshot");

        final boolean restore;
        final String engine;
        final List<String> markers;

        Mode(boolean restore, String engine, String... markers) {
            this.restore = restore;
            this.engine = engine;
            this.markers = List.of(markers);
        }
    }

    record Moment(int index, Mode mode, String marker, int delayMs) {
        @Override
        public String toString() {
            return String.format("#%02d %s after \"%s\" + %d ms", index, mode, marker, delayMs);
        }
    }

    @TempDir
    static Path dir;
    /** A data dir (the base snapshot, revision 601) for --force to replace; restore runs start from a copy. */
    private static Path oldDataDir;

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

    /** Every mode's every marker once (20), in a seeded random order, each with a random delay. */
    static List<Moment> moments(long seed) {
        Random random = new Random(seed);
        List<Moment> all = new ArrayList<>();
        for (Mode mode : Mode.values()) {
            for (String marker : mode.markers) {
                all.add(new Moment(0, mode, marker, 0));
            }
        }
        Collections.shuffle(all, random);
        List<Moment> moments = new ArrayList<>();
        for (Moment m : all) {
            int max = m.marker().equals(TOOL_STARTS) ? MAX_TOOL_DELAY_MS : MAX_DELAY_MS;
            moments.add(new Moment(moments.size() + 1, m.mode(), m.marker(), random.nextInt(max + 1)));
        }
        return moments;
    }

    /** A moment of a restore (with --force onto an old data dir) to send SIGTERM at: a log line of the run. */
    record SigtermMoment(Mode mode, String marker, String during) {
        @Override
        public String toString() {
            return String.format("SIGTERM %s during %s (at \"%s\")", mode, during, marker);
        }
    }

    /**
     * The moments {@code EtcdStartSignalsIT} does not cover: the base's download (right after the
     * selection), the fold, the verification, and the placing (the copy into {@code .part}, the
     * renames; the replay's snapshot restore into {@code .part}).
     */
    static final List<SigtermMoment> SIGTERM_MOMENTS = List.of(
            new SigtermMoment(Mode.RESTORE_OFFLINE, "phase done phase=select", "the base's download"),
            new SigtermMoment(Mode.RESTORE_OFFLINE, "offline base folded", "the fold of the deltas"),
            new SigtermMoment(Mode.RESTORE_OFFLINE, "etcd started", "the verification"),
            new SigtermMoment(Mode.RESTORE_OFFLINE, "phase done phase=restoreOffline", "the copy into .part"),
            new SigtermMoment(Mode.RESTORE_OFFLINE, "phase done phase=stopEtcd", "the placing renames"),
            new SigtermMoment(Mode.RESTORE_REPLAY, "phase done phase=select", "the base's download"),
            new SigtermMoment(Mode.RESTORE_REPLAY, "phase done phase=replay", "the verification"),
            new SigtermMoment(Mode.RESTORE_REPLAY, "phase done phase=stopEtcd", "the snapshot restore into .part"));

    @TestFactory
    Stream<DynamicTest> sigtermAtEachMomentExits40LeavingTheTargetUntouchedOrComplete() {
        return SIGTERM_MOMENTS.stream().map(m -> DynamicTest.dynamicTest(m.toString(), () -> sigterm(m)));
    }

    private void sigterm(SigtermMoment m) throws Exception {
        Path run = Files.createDirectories(dir.resolve(String.format("term-%02d", SIGTERM_MOMENTS.indexOf(m))));
        Path work = Files.createDirectories(run.resolve("work"));
        Path target = run.resolve("data/new.etcd");
        FileTree.copy(oldDataDir, target);
        List<String> args = args(m.mode(), Fixtures.bucket("gzip"), target, run.resolve("scratch"));

        SignalledRun signalled = SignalledRun.sigtermAt(m.marker(), JarRun.jar("restore.jar"), JVM, args, run);
        System.out.printf("CRASH %s: signalled after \"%s\"%n", m, signalled.lastLineBeforeSignal());

        assertThat(signalled.exitCode()).as(signalled.stderr()).isEqualTo(40);
        assertThat(new ObjectMapper()
                        .readTree(signalled.stdout().strip())
                        .get("errorCode")
                        .asText())
                .isEqualTo("INTERRUPTED");
        CrashChecks.awaitNoProcessUnder(run);
        assertTargetUntouchedOrComplete(true, target, run);
        assertThat(CrashChecks.entries(target.getParent()))
                .as("beside the data dir (no .part, .lock or .replaced)")
                .containsExactly("new.etcd");
        assertThat(CrashChecks.entries(run.resolve("scratch")))
                .as("left in the scratch dir")
                .isEmpty();
        assertThat(CrashChecks.entries(work)).as("left in the working dir").isEmpty();
        FileTree.delete(run);
    }

    @TestFactory
    Stream<DynamicTest> sigkillAtRandomMomentsLeavesNothingTheNextRunCannotFix() {
        List<Moment> moments = moments(SEED);
        System.out.printf("CRASH seed=%d (-Dcrash.seed=%d replays it)%n", SEED, SEED);
        moments.forEach(m -> System.out.println("CRASH moment " + m));
        return moments.stream().map(m -> DynamicTest.dynamicTest(m.toString(), () -> killAndRecover(m)));
    }

    private void killAndRecover(Moment m) throws Exception {
        long started = System.nanoTime();
        Path run = Files.createDirectories(dir.resolve(String.format("kill-%02d", m.index())));
        Path work = Files.createDirectories(run.resolve("work"));
        Path target = run.resolve("data/new.etcd");
        Path bucket = m.mode().restore ? Fixtures.bucket("gzip") : Fixtures.copyBucket("gzip", run);
        List<String> bucketBefore = CrashChecks.bucketFiles(bucket);
        if (m.mode() == Mode.RESTORE_OFFLINE) {
            FileTree.copy(oldDataDir, target); // replaced with --force once the new one is complete
        }
        List<String> args = args(m.mode(), bucket, target, run.resolve("scratch"));
        Path jar = JarRun.jar(m.mode().restore ? "restore.jar" : "worker.jar");

        String landed = kill(m, jar, args, run);
        System.out.printf("CRASH %s: killed %s%n", m, landed);

        CrashChecks.awaitNoProcessUnder(run);
        if (m.mode().restore) {
            assertTargetUntouchedOrComplete(m.mode() == Mode.RESTORE_OFFLINE, target, run);
        } else {
            CrashChecks.assertOnlyRestorableFullSnapshotsAdded(bucket, bucketBefore, run, true);
            List<String> added = new ArrayList<>(CrashChecks.bucketFiles(bucket));
            added.removeAll(bucketBefore);
            System.out.printf("CRASH %s: new in the bucket after the kill: %s%n", m, added);
        }

        JarRun rerun = JarRun.run(jar, Map.of("PATH", System.getenv("PATH")), work, JVM, args.toArray(String[]::new));
        assertThat(rerun.exitCode()).as("the rerun: %s", rerun.stderr()).isZero();
        JsonNode result = new ObjectMapper().readTree(rerun.stdout().strip());
        CrashChecks.awaitNoProcessUnder(run);
        if (m.mode().restore) {
            CrashChecks.assertExact(result, "the rerun's result");
            assertThat(CrashChecks.entries(target.getParent()))
                    .as("beside the data dir")
                    .containsExactly("new.etcd");
        } else {
            List<String> added = CrashChecks.assertOnlyRestorableFullSnapshotsAdded(bucket, bucketBefore, run, false);
            assertThat(added).as("a new full snapshot").isNotEmpty();
            if (result.get("outcome").asText().equals("skipped")) {
                assertThat(result.get("reason").asText())
                        .as("the killed run had committed its snapshot")
                        .contains("no deltas after the latest full snapshot");
            } else {
                CrashChecks.assertExact(result, "the rerun's result");
            }
        }
        assertThat(CrashChecks.entries(run.resolve("scratch")))
                .as("left in the scratch dir")
                .isEmpty();
        assertThat(CrashChecks.entries(work)).as("left in the working dir").isEmpty();
        System.out.printf("CRASH %s: recovered, %d ms in all%n", m, (System.nanoTime() - started) / 1_000_000);
        FileTree.delete(run);
    }

    private static List<String> args(Mode mode, Path bucket, Path target, Path scratch) {
        List<String> args = new ArrayList<>(List.of(
                mode.restore ? "restore" : "compact",
                "--store-container",
                bucket.toString(),
                "--scratch-dir",
                scratch.toString(),
                "--engine=" + mode.engine));
        if (mode.restore) {
            // --force: a kill after the data dir was placed must not make the rerun refuse it
            args.addAll(List.of("--data-dir", target.toString(), "--force"));
        }
        return args;
    }

    /** Starts the jar, waits for the moment and sends SIGKILL; says where it landed. */
    private static String kill(Moment m, Path jar, List<String> args, Path run) throws Exception {
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(JVM);
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(args);
        Path stderr = run.resolve("killed.err");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(run.resolve("work").toFile())
                .redirectOutput(run.resolve("killed.out").toFile())
                .redirectError(stderr.toFile());
        builder.environment().clear();
        builder.environment().put("PATH", System.getenv("PATH"));
        long t0 = System.nanoTime();
        Process worker = builder.start();
        try {
            Awaitility.await(m.toString())
                    .atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(10))
                    .until(() -> !worker.isAlive() || Files.readString(stderr).contains(m.marker()));
            assertThat(worker.isAlive())
                    .as("the worker ran until the marker: %s", Files.readString(stderr))
                    .isTrue();
            boolean exited = worker.waitFor(m.delayMs(), TimeUnit.MILLISECONDS);
            long at = (System.nanoTime() - t0) / 1_000_000;
            worker.destroyForcibly(); // SIGKILL
            assertThat(worker.waitFor(30, TimeUnit.SECONDS)).isTrue();
            List<String> log = Files.readAllLines(stderr, StandardCharsets.UTF_8);
            String last = log.isEmpty() ? "(no log)" : log.get(log.size() - 1);
            return (exited ? "after it exited " + worker.exitValue() : "at " + at + " ms") + ", last log line: "
                    + last.substring(Math.min(last.length(), 24), Math.min(last.length(), 200));
        } finally {
            worker.destroyForcibly();
        }
    }

    private static void assertTargetUntouchedOrComplete(boolean hadOld, Path target, Path run) throws Exception {
        Path replaced = target.resolveSibling("new.etcd.replaced");
        if (!Files.exists(target)) {
            if (hadOld) {
                assertThat(replaced)
                        .as("killed between the renames: the old data dir is kept aside")
                        .exists();
                assertThat(CrashChecks.treeDigest(replaced)).isEqualTo(CrashChecks.treeDigest(oldDataDir));
            }
            return;
        }
        if (hadOld && CrashChecks.treeDigest(target).equals(CrashChecks.treeDigest(oldDataDir))) {
            return; // untouched
        }
        CrashChecks.assertExact(
                CrashChecks.served(target, Files.createDirectories(run.resolve("serve"))),
                "the data dir left by the kill");
        FileTree.delete(run.resolve("serve"));
    }
}
