package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.JarRun;
import io.etcdworkers.testsupport.TreeModes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A compaction (the jar, in a JVM started with umask 022) creates only directories {@code 0700}
 * and files {@code 0600} in its scratch and WAL dirs while it runs (watched by
 * {@link TreeModes}), while the snapshot it uploads into a {@code Local} bucket gets the modes
 * the bucket's writer always gave (the umask's: {@code 0644} here), which the backup sidecar
 * that shares the bucket relies on.
 */
@Timeout(600)
class CompactionOwnerOnlyFilesIT {
    private static final List<String> JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "--engine={0}")
    @ValueSource(strings = {"offline", "replay"})
    void aCompactionUnderUmask022WritesOnlyOwnerOnlyScratchFilesAndKeepsTheBucketsModes(String engine)
            throws IOException {
        Path bucket = Fixtures.copyBucket("gzip", dir.resolve("buckets"));
        List<String> before = snapshots(bucket);
        Path work = Files.createDirectories(dir.resolve("work"));
        List<String> jvm = new ArrayList<>(JVM);
        jvm.add("-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("tmp")));
        TreeModes modes;
        JarRun run;
        try (TreeModes watching = TreeModes.watch(dir.resolve("scratch"), dir.resolve("wal"))) {
            modes = watching;
            run = JarRun.runWithUmask(
                    "022",
                    JarRun.jar("worker.jar"),
                    Map.of("PATH", System.getenv("PATH")),
                    work,
                    jvm,
                    "compact",
                    "--store-container=" + bucket,
                    "--scratch-dir=" + dir.resolve("scratch"),
                    "--scratch-wal-dir=" + dir.resolve("wal"),
                    "--engine=" + engine);
        }

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        List<String> seen = modes.seen().keySet().stream().map(Path::toString).toList();
        assertThat(seen)
                .as("what the watch saw of the run")
                .anyMatch(p -> p.matches(".*/scratch/restore-\\d+/base\\.db"))
                .anyMatch(p -> p.matches(".*/scratch/restore-\\d+/verify\\.etcd/member/snap/db"))
                .anyMatch(p -> p.matches(".*/wal/restore-\\d+-wal/.*\\.wal"));
        assertThat(modes.notOwnerOnly())
                .as("seen with other modes than 0700/0600")
                .isEmpty();

        List<String> added = new ArrayList<>(snapshots(bucket));
        added.removeAll(before);
        assertThat(added).as("the new full snapshot").hasSize(1);
        Path uploaded = bucket.resolve("v2").resolve(added.get(0));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(uploaded)))
                .as("the uploaded snapshot, as the bucket's writer always made it")
                .isEqualTo("rw-r--r--");
    }

    private static List<String> snapshots(Path bucket) throws IOException {
        try (Stream<Path> files = Files.list(bucket.resolve("v2"))) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
