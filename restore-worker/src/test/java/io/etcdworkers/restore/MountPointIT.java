package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.files.FileTree;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A volume mounted exactly at {@code --data-dir} (a tmpfs here) cannot be replaced by a rename:
 * refused at the start, before anything is listed or downloaded, with the mount point named and
 * its content untouched. Was found only at the final rename, after the whole restore. Needs root
 * (mount); skipped with a message otherwise.
 */
@Timeout(120)
class MountPointIT {
    /** Not a {@code @TempDir}: JUnit would try to delete it before the tmpfs is unmounted. */
    private Path dir;

    private Path target;
    private boolean mounted;

    @BeforeEach
    void mountAtTheDataDir() throws Exception {
        dir = Files.createTempDirectory("mount-point-it-");
        target = Files.createDirectories(dir.resolve("data/new.etcd"));
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", target.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(mount.getInputStream().readAllBytes());
        mounted = mount.waitFor() == 0;
        Assumptions.assumeTrue(mounted, "cannot mount a tmpfs (needs root): " + output.strip());
    }

    @AfterEach
    void unmount() throws Exception {
        if (mounted) {
            assertThat(new ProcessBuilder("umount", target.toString())
                            .inheritIO()
                            .start()
                            .waitFor())
                    .isZero();
        }
        FileTree.delete(dir);
    }

    private CommandRun restore(String... more) {
        String[] args = Stream.concat(
                        Stream.of(
                                "restore",
                                "--store-container",
                                Fixtures.bucket("gzip").toString(),
                                "--data-dir",
                                target.toString(),
                                "--scratch-dir",
                                dir.resolve("scratch").toString()),
                        Stream.of(more))
                .toArray(String[]::new);
        return CommandRun.run(
                WorkerContext::new, RestoreWorkerCommand::run, Map.of("PATH", System.getenv("PATH")), dir, args);
    }

    @Test
    void anEmptyMountPointIsRefusedBeforeAnythingIsDownloaded() throws Exception {
        CommandRun run = restore();

        assertRefusedUpFront(run);
    }

    @Test
    void withForceAMountedDataDirIsRefusedBeforeAnythingIsDownloadedAndKept() throws Exception {
        Files.writeString(target.resolve("old"), "the old data dir");

        CommandRun run = restore("--force");

        assertRefusedUpFront(run);
        assertThat(target.resolve("old")).hasContent("the old data dir");
    }

    private void assertRefusedUpFront(CommandRun run) throws Exception {
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ErrorCode.LOCAL_IO.exitCode());
        assertThat(run.result().get("error").asText())
                .contains(target.toString(), "is a mount point", "not a mount point itself");
        assertThat(run.stderr())
                .as("nothing listed, nothing downloaded")
                .doesNotContain("restore plan", "phase=fetchBase");
        try (Stream<Path> beside = Files.list(target.getParent())) {
            assertThat(beside).containsExactly(target);
        }
    }
}
