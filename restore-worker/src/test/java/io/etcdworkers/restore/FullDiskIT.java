package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.GeneratedBucket;
import io.etcdworkers.testsupport.GeneratedBucket.Compression;
import io.etcdworkers.testsupport.JarRun;
import io.etcdworkers.testsupport.Processes;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A restore whose scratch dir, or whose target's file system, is a 8 MiB tmpfs too small for
 * the job: a clear error that says the disk is full and names the dir, nothing half-written, no
 * etcd left. Needs root (mount); skipped with a message otherwise.
 */
@Timeout(300)
class FullDiskIT {
    /** Not a {@code @TempDir}: JUnit would try to delete it before the tmpfs is unmounted. */
    private static Path dir;

    private static Path small;
    private static boolean mounted;

    private Path target;

    @BeforeAll
    static void mountSmallTmpfs() throws Exception {
        dir = Files.createTempDirectory("full-disk-it-");
        small = dir.resolve("small");
        Files.createDirectories(small);
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", small.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(mount.getInputStream().readAllBytes());
        mounted = mount.waitFor() == 0;
        Assumptions.assumeTrue(mounted, "cannot mount a tmpfs (needs root): " + output.strip());
    }

    @AfterAll
    static void unmount() throws Exception {
        if (mounted) {
            assertThat(new ProcessBuilder("umount", small.toString())
                            .inheritIO()
                            .start()
                            .waitFor())
                    .isZero();
        }
        io.etcdworkers.files.FileTree.delete(dir);
    }

    @AfterEach
    void emptyTheSmallDisk() throws IOException {
        try (Stream<Path> left = Files.list(small)) {
            for (Path p : (Iterable<Path>) left::iterator) {
                io.etcdworkers.files.FileTree.delete(p);
            }
        }
    }

    private CommandRun restore(Path bucket, Path scratch, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "restore",
                "--store-container",
                bucket.toString(),
                "--data-dir",
                target.toString(),
                "--scratch-dir",
                scratch.toString()));
        args.addAll(List.of(extra));
        return CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                args.toArray(String[]::new));
    }

    @Test
    void aFullScratchDirIsLocalIoNamingIt() throws IOException {
        GeneratedBucket bucket = GeneratedBucket.create(dir.resolve("big-bucket"), Compression.NONE, 7);
        for (int i = 0; i < 10; i++) {
            bucket.put("/registry/secrets/big-" + i, 1_000_000); // one 13 MB delta: more than the disk
        }
        bucket.cutDelta();
        target = dir.resolve("data/a.etcd");

        CommandRun run = restore(bucket.root(), small.resolve("scratch"));

        assertFailedCleanly(run, ErrorCode.LOCAL_IO, small.resolve("scratch").toString());
    }

    /**
     * 200,000 small keys with an 8 MiB fold budget: the fold moves its keys to partitions on the
     * scratch disk early, and those outgrow the 8 MiB tmpfs.
     */
    @Test
    void aScratchDirFilledByTheFoldsKeyPartitionsIsLocalIoNamingIt() throws IOException {
        GeneratedBucket bucket = GeneratedBucket.create(dir.resolve("many-keys"), Compression.GZIP, 9);
        for (int d = 0; d < 20; d++) {
            for (int i = 0; i < 10_000; i++) {
                bucket.put("/registry/configmaps/many/cm-" + (d * 10_000 + i), 16);
            }
            bucket.cutDelta();
        }
        target = dir.resolve("data/c.etcd");

        // the jar in its own JVM, so its log (stderr) shows where the fold was when the disk filled
        JarRun run = JarRun.run(
                JarRun.jar("worker.jar"),
                Map.of("PATH", System.getenv("PATH")),
                dir,
                List.of("-XX:+UseSerialGC", "-Xmx256m"),
                "restore",
                "--store-container",
                bucket.root().toString(),
                "--data-dir",
                target.toString(),
                "--scratch-dir",
                small.resolve("scratch").toString(),
                "--fold-memory=8Mi",
                "--max-fetchers=1");

        assertThat(run.stderr())
                .as("the fold went to key partitions before the disk filled")
                .contains("later change go to 64 key partitions");
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ErrorCode.LOCAL_IO.exitCode());
        assertThat(new ObjectMapper().readTree(run.stdout()).get("error").asText())
                .contains("the file system holding " + small.resolve("scratch"))
                .containsIgnoringCase("no space left");
        assertLeftNothing();
    }

    /**
     * The scratch dir has room, the {@code --scratch-wal-dir} does not: etcd's tool fails to
     * preallocate the WAL's first 64 MB segment in {@code <run>-wal.tmp} on the small disk. The
     * message blames the WAL dir's file system (not the scratch dir's), and the run removes the
     * {@code .tmp} the tool left, as it removes the WAL dir.
     */
    @Test
    void aFullScratchWalDirIsLocalIoNamingTheWalDirsFileSystemAndLeavesNoTmp() throws IOException {
        target = dir.resolve("data/d.etcd");
        Path scratch = dir.resolve("scratch-d");
        Path wal = small.resolve("wal");
        Files.createDirectories(wal);

        CommandRun run = restore(Fixtures.bucket("plain"), scratch, "--scratch-wal-dir", wal.toString());

        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ErrorCode.LOCAL_IO.exitCode());
        String error = run.result().get("error").asText();
        assertThat(error)
                .contains("the file system holding " + wal.resolve("restore-"))
                .doesNotContain("the file system holding " + scratch)
                .containsIgnoringCase("no space left");
        try (Stream<Path> left = Files.list(wal)) {
            assertThat(left).as("the WAL dir and etcd's <wal-dir>.tmp removed").isEmpty();
        }
        assertLeftNothing();
    }

    @Test
    void aFullTargetFileSystemSaysTheDiskIsFull() throws IOException {
        target = small.resolve("data/b.etcd");

        CommandRun run = restore(Fixtures.bucket("plain"), dir.resolve("scratch-b"));

        assertFailedCleanly(run, ErrorCode.LOCAL_IO, small.resolve("data").toString());
    }

    private void assertFailedCleanly(CommandRun run, ErrorCode code, String named) throws IOException {
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(code.exitCode());
        String error = run.result().get("error").asText();
        assertThat(error).contains(named).containsIgnoringCase("no space left");
        assertLeftNothing();
    }

    private void assertLeftNothing() throws IOException {
        Processes.awaitNoneMentioning(dir);
        assertThat(target).doesNotExist();
        assertThat(target.resolveSibling(target.getFileName() + ".part")).doesNotExist();
        try (Stream<Path> files = Files.walk(small)) {
            assertThat(files.filter(Files::isRegularFile))
                    .as("nothing half-written on the small disk")
                    .isEmpty();
        }
    }
}
