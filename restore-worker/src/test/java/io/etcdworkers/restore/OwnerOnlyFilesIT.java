package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.JarRun;
import io.etcdworkers.testsupport.TreeModes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The keyspace is its owner's alone: a restore (both engines, the WAL under
 * {@code --scratch-wal-dir}) and an extract of the fixture's Secrets, each the jar in a JVM
 * started with umask 022, create only directories {@code 0700} and files {@code 0600}: in the
 * scratch dir while they run (watched by {@link TreeModes}: the run dir, the downloaded base,
 * the decoded deltas, the written and the verified database, the verifying etcd's data dir, WAL
 * and log), beside and in the data dir they place, and in the extract's output.
 */
@Timeout(600)
class OwnerOnlyFilesIT {
    private static final List<String> JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData");
    private static final Pattern RUN = Pattern.compile(".*/scratch/restore-\\d+");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "--engine={0}")
    @ValueSource(strings = {"offline", "replay"})
    void aRestoreUnderUmask022WritesOnlyOwnerOnlyFiles(String engine) throws IOException {
        Path data = dir.resolve("data/new.etcd");
        TreeModes modes;
        JarRun run;
        try (TreeModes watching = TreeModes.watch(dir.resolve("scratch"), dir.resolve("wal"), dir.resolve("data"))) {
            modes = watching;
            run = worker(
                    "restore",
                    "--store-container=" + Fixtures.bucket("gzip"),
                    "--data-dir=" + data,
                    "--scratch-dir=" + dir.resolve("scratch"),
                    "--scratch-wal-dir=" + dir.resolve("wal"),
                    "--engine=" + engine);
        }

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        List<String> seen = seen(modes);
        assertThat(seen)
                .as("what the watch saw of the run")
                .anyMatch(p -> RUN.matcher(p).matches())
                .anyMatch(p -> p.matches(".*/scratch/restore-\\d+\\.lock"))
                .anyMatch(p -> p.matches(".*/scratch/restore-\\d+/base\\.db"))
                .anyMatch(p -> p.matches(".*/scratch/restore-\\d+/verify\\.etcd/member/snap/db"))
                .anyMatch(p -> p.matches(".*/scratch/restore-\\d+/etcd-\\d+/etcd\\.log"))
                .anyMatch(p -> p.matches(".*/wal/restore-\\d+-wal/.*\\.wal"))
                .anyMatch(p -> p.matches(".*/data/new\\.etcd\\.part/member/snap/db"))
                .anyMatch(p -> p.endsWith("/data/new.etcd.lock"));
        if (engine.equals("replay")) {
            assertThat(seen).anyMatch(p -> p.matches(".*/scratch/restore-\\d+/verified\\.db"));
        } else {
            assertThat(seen).anyMatch(p -> p.matches(".*/scratch/restore-\\d+/offline/.*"));
        }
        assertThat(modes.notOwnerOnly())
                .as("seen with other modes than 0700/0600")
                .isEmpty();
        assertThat(notOwnerOnly(dir.resolve("data")))
                .as("the placed data dir and its parent")
                .isEmpty();
        assertThat(data.resolve("member/snap/db")).exists();
    }

    @Test
    void anExtractOfSecretsUnderUmask022WritesOnlyOwnerOnlyFiles() throws IOException {
        Path output = dir.resolve("out/secrets");
        TreeModes modes;
        JarRun run;
        try (TreeModes watching = TreeModes.watch(dir.resolve("scratch"), dir.resolve("out"))) {
            modes = watching;
            run = worker(
                    "extract",
                    "--store-container=" + Fixtures.bucket("gzip"),
                    "--prefix=/registry/secrets/",
                    "--output=" + output,
                    "--scratch-dir=" + dir.resolve("scratch"));
        }

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        List<String> values;
        try (Stream<Path> files = Files.walk(output)) {
            values = files.map(Path::toString).filter(p -> p.endsWith(".value")).toList();
        }
        assertThat(values).as("the Secrets' values").hasSizeGreaterThan(20);
        assertThat(seen(modes))
                .anyMatch(p -> p.matches(".*/out/secrets\\.part/.*\\.value"))
                .anyMatch(p -> p.matches(".*/scratch/restore-\\d+/base\\.db"));
        assertThat(modes.notOwnerOnly())
                .as("seen with other modes than 0700/0600")
                .isEmpty();
        assertThat(notOwnerOnly(dir.resolve("out"))).as("the extract's output").isEmpty();
    }

    private JarRun worker(String... args) throws IOException {
        Path work = Files.createDirectories(dir.resolve("work"));
        List<String> jvm = new ArrayList<>(JVM);
        jvm.add("-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("tmp")));
        return JarRun.runWithUmask(
                "022", JarRun.jar("worker.jar"), Map.of("PATH", System.getenv("PATH")), work, jvm, args);
    }

    private static List<String> seen(TreeModes modes) {
        return modes.seen().keySet().stream().map(Path::toString).toList();
    }

    /** What under {@code root} (itself included) is not a 0700 dir or a 0600 file, as it is now. */
    static List<String> notOwnerOnly(Path root) {
        TreeModes now = TreeModes.now(root);
        assertThat(now.seen()).as("entries under %s", root).isNotEmpty();
        return now.notOwnerOnly();
    }
}
