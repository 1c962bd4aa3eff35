package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.files.ProcessOwner;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.JarRun;
import io.etcdworkers.testsupport.TreeModes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A restore (the jar, {@code java.io.tmpdir} a shared temp dir of the test's) never removes what
 * others keep in the temp dir, whatever its name ({@code restore-notes.txt}, another program's
 * {@code restore-x/}, a lock without a run's marker); given no {@code --scratch-dir} it works in a
 * dir of its own there, {@code etcd-workers-<uid>} (0700), and refuses one that is a link or
 * another user's with exit 2 before anything is touched.
 */
@Timeout(300)
class DefaultScratchDirIT {
    private static final List<String> JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData");

    @TempDir
    Path dir;

    private Path tmp() throws IOException {
        return Files.createDirectories(dir.resolve("tmp"));
    }

    private Path own() throws IOException {
        return tmp().resolve("etcd-workers-" + ProcessOwner.uid());
    }

    /** Another user's and other programs' entries in the temp dir, named as a run's might be. */
    private List<String> othersEntries() throws IOException {
        Path tmp = tmp();
        Files.writeString(tmp.resolve("restore-notes.txt"), "someone's notes");
        Files.createDirectories(tmp.resolve("restore-x"));
        Files.writeString(tmp.resolve("restore-x/notes"), "someone's dir");
        Files.createDirectories(tmp.resolve("compact-2/data"));
        Files.writeString(tmp.resolve("restore-1.lock"), "");
        Files.createDirectories(tmp.resolve("restore-1"));
        return names(tmp);
    }

    @ParameterizedTest(name = "--scratch-dir given: {0}")
    @ValueSource(booleans = {false, true})
    void aRunLeavesWhatOthersKeepInTheTempDir(boolean tempDirGiven) throws IOException {
        List<String> others = othersEntries();
        Path data = dir.resolve("data/new.etcd");
        List<String> args = new ArrayList<>(
                List.of("restore", "--store-container=" + Fixtures.bucket("gzip"), "--data-dir=" + data));
        if (tempDirGiven) {
            args.add("--scratch-dir=" + tmp());
        }
        TreeModes modes;
        JarRun run;
        try (TreeModes watching = TreeModes.watch(tmp())) {
            modes = watching;
            run = restore(args.toArray(String[]::new));
        }

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(data.resolve("member/snap/db")).exists();
        String runDirs =
                tempDirGiven ? ".*/tmp/restore-\\d+/base\\.db" : ".*/tmp/etcd-workers-\\d+/restore-\\d+/base\\.db";
        assertThat(modes.seen().keySet())
                .as("where the run worked")
                .anyMatch(p -> p.toString().matches(runDirs));
        List<String> left = new ArrayList<>(others);
        if (!tempDirGiven) {
            left.add(own().getFileName().toString());
            assertThat(mode(own())).isEqualTo("rwx------");
            assertThat(names(own())).as("the default scratch dir after the run").isEmpty();
        }
        assertThat(names(tmp())).containsExactlyInAnyOrderElementsOf(left);
        assertThat(tmp().resolve("restore-notes.txt")).hasContent("someone's notes");
        assertThat(tmp().resolve("restore-x/notes")).hasContent("someone's dir");
        assertThat(tmp().resolve("restore-1.lock")).isEmptyFile();
        if (tempDirGiven) {
            assertThat(run.stderr())
                    .as("what was left, and why")
                    .contains("restore-notes.txt (not a name this program gives)");
        }
    }

    @Test
    void aDefaultScratchDirThatIsALinkIsRefusedBeforeAnythingIsTouched() throws IOException {
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Files.writeString(elsewhere.resolve("restore-1"), "not the worker's");
        Files.createSymbolicLink(own(), elsewhere);
        Path data = dir.resolve("data/new.etcd");

        JarRun run = restore("restore", "--store-container=" + Fixtures.bucket("gzip"), "--data-dir=" + data);

        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(2);
        assertThat(run.stdout()).contains("refusing the default scratch dir " + own() + ": it is a symbolic link");
        assertThat(run.stderr()).as("the bucket is not even listed").doesNotContain("restore plan");
        assertThat(names(elsewhere)).containsExactly("restore-1");
        assertThat(dir.resolve("data")).doesNotExist();
    }

    @Test
    void aDefaultScratchDirOfAnotherUserIsRefused() throws IOException {
        Assumptions.assumeTrue(ProcessOwner.uid() == 0, "needs root to give a dir to another user");
        Files.createDirectories(own());
        Files.setAttribute(own(), "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);

        JarRun run = restore(
                "restore",
                "--store-container=" + Fixtures.bucket("gzip"),
                "--data-dir=" + dir.resolve("data/new.etcd"));

        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(2);
        assertThat(run.stdout())
                .contains("refusing the default scratch dir " + own()
                        + ": it is owned by uid 65534, not by this process's uid 0");
        assertThat(names(own())).isEmpty();
    }

    private JarRun restore(String... args) throws IOException {
        List<String> jvm = new ArrayList<>(JVM);
        jvm.add("-Djava.io.tmpdir=" + tmp());
        return JarRun.runWithUmask(
                "022",
                JarRun.jar("worker.jar"),
                Map.of("PATH", System.getenv("PATH")),
                Files.createDirectories(dir.resolve("work")),
                jvm,
                args);
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).toList();
        }
    }
}
