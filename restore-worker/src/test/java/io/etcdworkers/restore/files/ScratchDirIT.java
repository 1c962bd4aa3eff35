package io.etcdworkers.restore.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.restore.testsupport.ScratchDirChildJvmMain;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scratch dirs of runs in other processes: a live run's is never touched, a killed run's
 * (SIGKILL: it ran no cleanup) is removed by the next run, and what runs of the version before
 * run dirs were locked left (no lock file at all) is removed too.
 */
@Timeout(60)
class ScratchDirIT {
    @TempDir
    Path root;
    private Process child;

    @AfterEach
    void noChildLeft() {
        if (child != null) {
            child.destroyForcibly();
        }
    }

    private Path startLiveRun() throws IOException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        child = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                ScratchDirChildJvmMain.class.getName(), root.toString())).redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String line = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(line).startsWith("SCRATCH ");
        return Path.of(line.substring("SCRATCH ".length()));
    }

    @Test
    void aLiveRunsDirIsKeptAndAKilledRunsDirIsRemovedByTheNextRun() throws Exception {
        Path live = startLiveRun();

        try (ScratchDir mine = ScratchDir.create(root, "restore-")) {
            assertThat(live.resolve("base.db")).as("a live run's download").exists();
            assertThat(mine.path()).isNotEqualTo(live).isDirectory();
        }

        child.destroyForcibly(); // SIGKILL: the dir and its lock file stay
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(live).exists();

        try (ScratchDir next = ScratchDir.create(root, "compact-")) {
            assertThat(live).as("the killed run's dir").doesNotExist();
            assertThat(names()).containsExactlyInAnyOrder(next.path().getFileName().toString(),
                    next.path().getFileName() + ".lock");
        }
        assertThat(names()).isEmpty();
    }

    @Test
    void aLiveRunClosingItsDirLeavesNothing() throws Exception {
        Path live = startLiveRun();
        child.getOutputStream().close();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isZero();
        assertThat(live).doesNotExist();
        assertThat(names()).isEmpty();
    }

    @Test
    void dirsWithoutALockFileAreDeadRunsOfTheVersionBefore() throws IOException {
        Files.createDirectories(root.resolve("restore-123/offline"));
        Files.writeString(root.resolve("restore-123/offline.db"), "17 MB, once");
        Files.createDirectories(root.resolve("compact-456/data"));
        Files.createDirectories(root.resolve("someone-elses"));
        Files.createDirectories(root.resolve("wal/restore-123-wal"));
        Files.createDirectories(root.resolve("wal/other-wal"));

        try (ScratchDir dir = ScratchDir.create(root, "restore-")) {
            assertThat(ScratchDir.removeDead(root.resolve("wal"), root, "-wal"))
                    .containsExactly(root.resolve("wal/restore-123-wal"));
            assertThat(root.resolve("restore-123")).doesNotExist();
            assertThat(root.resolve("compact-456")).doesNotExist();

            // --scratch-wal-dir the same as --scratch-dir: a live run's WAL dir stays
            Path liveWal = Files.createDirectories(root.resolve(dir.path().getFileName() + "-wal"));
            try (ScratchDir other = ScratchDir.create(root, "compact-")) {
                assertThat(ScratchDir.removeDead(root, root, "-wal")).isEmpty();
                assertThat(liveWal).exists();
            }
            Files.delete(liveWal);
        }
        assertThat(names()).containsExactlyInAnyOrder("someone-elses", "wal");
        assertThat(root.resolve("wal/other-wal")).exists();
    }

    private List<String> names() throws IOException {
        try (Stream<Path> entries = Files.list(root)) {
            return entries.map(p -> p.getFileName().toString()).toList();
        }
    }
}
