package io.etcdworkers.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scratch dirs of runs in other processes (each a JVM started with umask 022): a live run's is
 * never touched, a killed run's (SIGKILL: it ran no cleanup) is removed by the next run, WAL dirs
 * included; and nothing a run of this program did not provably make is ever removed, whatever
 * its name: other files and dirs named {@code restore-*}, dirs without a marked lock, a killed
 * run's dir replaced by a link or owned by another user.
 */
@Timeout(90)
class ScratchDirIT {
    @TempDir
    Path dir;

    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void noChildLeft() {
        children.forEach(Process::destroyForcibly);
    }

    private Path root() throws IOException {
        return Files.createDirectories(dir.resolve("scratch"));
    }

    private Path wal() {
        return dir.resolve("wal");
    }

    /** A run in a JVM of its own, started with umask 022; returns its run dir. */
    private Process startRun(Path root, Optional<Path> wal) throws IOException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(
                "/bin/sh",
                "-c",
                "umask 022; exec \"$@\"",
                "sh",
                java,
                "-cp",
                System.getProperty("java.class.path"),
                ScratchDirChildJvmMain.class.getName(),
                root.toString()));
        wal.ifPresent(w -> command.add(w.toString()));
        Process child = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        children.add(child);
        return child;
    }

    private static Path runDirOf(Process child) throws IOException {
        String line =
                new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(line).startsWith("SCRATCH ");
        return Path.of(line.substring("SCRATCH ".length()));
    }

    private static void kill(Process child) throws InterruptedException {
        child.destroyForcibly(); // SIGKILL: the dir and its lock file stay
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aLiveRunsDirIsKeptAndAKilledRunsDirIsRemovedByTheNextRun() throws Exception {
        Path root = root();
        Process child = startRun(root, Optional.of(wal()));
        Path live = runDirOf(child);
        assertThat(mode(live)).as("a run dir, under umask 022").isEqualTo("rwx------");
        assertThat(mode(Path.of(live + ".lock"))).as("its lock file").isEqualTo("rw-------");

        try (ScratchDir mine = ScratchDir.create(root, "restore-", Optional.of(wal()))) {
            assertThat(live.resolve("base.db")).as("a live run's download").exists();
            assertThat(wal().resolve(live.getFileName() + "-wal"))
                    .as("a live run's WAL dir")
                    .exists();
            assertThat(mine.path()).isNotEqualTo(live).isDirectory();
        }

        kill(child);
        assertThat(live).exists();

        try (ScratchDir next = ScratchDir.create(root, "compact-", Optional.of(wal()))) {
            assertThat(live).as("the killed run's dir").doesNotExist();
            assertThat(names(root))
                    .containsExactlyInAnyOrder(
                            next.path().getFileName().toString(), next.path().getFileName() + ".lock");
            assertThat(names(wal()))
                    .as("the killed run's WAL dir and etcd's .tmp beside it")
                    .isEmpty();
        }
        assertThat(names(root)).isEmpty();
    }

    @Test
    void aLiveRunClosingItsDirLeavesNothing() throws Exception {
        Process child = startRun(root(), Optional.empty());
        Path live = runDirOf(child);
        child.getOutputStream().close();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isZero();
        assertThat(live).doesNotExist();
        assertThat(names(root())).isEmpty();
    }

    /** A scratch dir that is a shared temp dir: what others keep there is theirs, whatever its name. */
    @Test
    void entriesThisProgramDidNotProvablyMakeAreLeftAlone() throws IOException {
        Path root = root();
        Files.writeString(root.resolve("restore-notes.txt"), "someone's notes");
        Files.createDirectories(root.resolve("restore-x"));
        Files.writeString(root.resolve("restore-x/notes"), "someone's dir");
        Files.createDirectories(root.resolve("compact-456/data"));
        Files.createDirectories(root.resolve("restore-123")); // a run dir of a version that did not mark its runs
        Files.writeString(root.resolve("restore-123/offline.db"), "17 MB, once");
        Files.writeString(root.resolve("restore-124.lock"), ""); // a lock without a marker
        Files.createDirectories(root.resolve("restore-124"));
        Files.writeString(root.resolve("restore-125.lock"), "some other program's lock\n");
        Files.createDirectories(root.resolve("restore-125"));
        Files.writeString(root.resolve("restore-126.lock"), ScratchDir.marker("restore-999")); // another run's
        Files.createDirectories(root.resolve("restore-126"));
        Files.createDirectories(root.resolve("someone-elses"));
        Files.createDirectories(wal().resolve("restore-123-wal"));
        Files.createDirectories(wal().resolve("restore-124-wal"));
        Files.createDirectories(wal().resolve("other-wal"));
        List<String> before = names(root);

        try (ScratchDir run = ScratchDir.create(root, "restore-", Optional.of(wal()))) {
            assertThat(ScratchSweep.removeDead(root, Optional.of(wal()))).isEmpty();
            List<String> expected = new ArrayList<>(before);
            expected.addAll(
                    List.of(run.path().getFileName().toString(), run.path().getFileName() + ".lock"));
            assertThat(names(root)).containsExactlyInAnyOrderElementsOf(expected);
        }
        assertThat(names(root)).containsExactlyInAnyOrderElementsOf(before);
        assertThat(root.resolve("restore-notes.txt")).hasContent("someone's notes");
        assertThat(root.resolve("restore-x/notes")).hasContent("someone's dir");
        assertThat(root.resolve("restore-124.lock")).isEmptyFile();
        assertThat(names(wal())).containsExactlyInAnyOrder("restore-123-wal", "restore-124-wal", "other-wal");
    }

    /** A dead run's lock is this program's, but its dirs were swapped for links: neither they nor their target go. */
    @Test
    void aKilledRunsDirReplacedByALinkIsLeftAndWhatItPointsToUntouched() throws Exception {
        Path root = root();
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Files.writeString(elsewhere.resolve("precious"), "not the worker's");
        Process child = startRun(root, Optional.of(wal()));
        Path run = runDirOf(child);
        kill(child);
        FileTree.delete(run);
        Files.createSymbolicLink(run, elsewhere);
        Path runWal = wal().resolve(run.getFileName() + "-wal");
        FileTree.delete(runWal);
        Files.createSymbolicLink(runWal, elsewhere);

        try (ScratchDir next = ScratchDir.create(root, "restore-", Optional.of(wal()))) {
            assertThat(Files.isSymbolicLink(run))
                    .as("the link in the killed run's place")
                    .isTrue();
            assertThat(Files.isSymbolicLink(runWal))
                    .as("the link in the killed run's WAL dir's place")
                    .isTrue();
            assertThat(Path.of(run + ".lock")).as("the killed run's own lock").doesNotExist();
        }
        assertThat(elsewhere.resolve("precious")).hasContent("not the worker's");
        assertThat(wal().resolve(run.getFileName() + "-wal.tmp"))
                .as("the killed run's, a real dir of its own")
                .doesNotExist();
    }

    /** As root: a run dir or lock of another user is never this process's to remove, marker or not. */
    @Test
    void anotherUsersRunDirOrLockIsLeftAlone() throws Exception {
        Assumptions.assumeTrue(ProcessOwner.uid() == 0, "needs root to give files to another user");
        Path root = root();
        Process first = startRun(root, Optional.empty());
        Path theirDir = runDirOf(first);
        Process second = startRun(root, Optional.empty());
        Path theirLock = Path.of(runDirOf(second) + ".lock");
        kill(first);
        kill(second);
        chown(theirDir, 65534);
        chown(theirLock, 65534);

        try (ScratchDir next = ScratchDir.create(root, "restore-")) {
            assertThat(theirDir.resolve("base.db")).as("a dir of uid 65534").exists();
            assertThat(Path.of(theirDir + ".lock"))
                    .as("the dead run's lock, root's own")
                    .doesNotExist();
            assertThat(theirLock).as("a lock of uid 65534").exists();
            assertThat(Path.of(theirLock.toString().replace(".lock", "")))
                    .as("the run dir beside that lock")
                    .exists();
        }
    }

    private static void chown(Path path, int uid) throws IOException {
        Files.setAttribute(path, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }

    private static List<String> names(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).toList();
        }
    }
}
