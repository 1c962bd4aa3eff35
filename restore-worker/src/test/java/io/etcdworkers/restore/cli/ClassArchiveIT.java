package io.etcdworkers.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.WorkerJvm;
import io.etcdworkers.testsupport.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's recipe for the workers' class archives (the Dockerfile's training runs, {@link
 * WorkerJvm#classArchiveFor}): a restore started with {@code -XX:ArchiveClassesAtExit} writes the
 * archive beside the jar, and the next restore maps the worker's classes from it. {@code
 * -Xshare:on} makes the JVM refuse to start when it cannot use the archive.
 */
class ClassArchiveIT {
    @TempDir
    Path dir;

    @Test
    void aRestoreWritesTheArchiveTheNextRestoreLoadsItsClassesFrom() throws Exception {
        Path jar = Files.copy(
                Path.of(System.getProperty("worker.jar")),
                Files.createDirectories(dir.resolve("app")).resolve("restore-worker.jar"));
        Path archive = Path.of(WorkerJvm.classArchiveFor(jar.toString()));

        restore(List.of("-Xlog:cds=error", "-XX:ArchiveClassesAtExit=" + archive), jar, "training");
        assertThat(archive).isRegularFile();
        assertThat(Files.size(archive)).isGreaterThan(1L << 20);

        Path classes = dir.resolve("classes.log");
        restore(
                List.of(
                        "-Xshare:on",
                        WorkerJvm.classArchiveOption(jar.toString()),
                        "-Xlog:class+load=info:file=" + classes),
                jar,
                "archived");
        String loaded = Files.readString(classes);
        assertThat(loaded).contains("io.etcdworkers.rebuild.offline.FoldWriter source: shared objects file (top)");
        assertThat(loaded).doesNotContain("io.etcdworkers.rebuild.offline.FoldWriter source: jar:");
    }

    private void restore(List<String> jvmOptions, Path jar, String name) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "-XX:+UseSerialGC",
                "-jar",
                jar.toString(),
                "restore",
                "--storage-provider",
                "Local",
                "--store-container",
                Fixtures.bucket(Fixtures.V0_41_2, "gzip").toString(),
                "--data-dir",
                dir.resolve(name + "/data.etcd").toString(),
                "--scratch-dir",
                dir.resolve(name + "/scratch").toString()));
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        Process worker = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        assertThat(worker.waitFor(120, TimeUnit.SECONDS))
                .as("the %s restore ended", name)
                .isTrue();
        assertThat(worker.exitValue()).as("%s: %s", name, Files.readString(err)).isZero();
        assertThat(Files.readString(out)).contains("\"outcome\":\"succeeded\"");
    }
}
