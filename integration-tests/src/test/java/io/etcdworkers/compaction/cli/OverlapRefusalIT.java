package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.files.FileTree;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.JarRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command that writes or deletes a target or a scratch dir, run as the Job runs it (the
 * real jar, its own JVM) against a copy of a real etcdbrctl bucket, refuses paths that overlap
 * the Local bucket, or a scratch dir inside its target: exit 2, a message naming both paths,
 * and everything (the bucket, the old data dir, their parent) byte for byte as it was, nothing
 * created, not even the scratch dir. Without the refusal a {@code --force} restore or extract
 * onto the bucket exits 0 and the bucket is gone.
 */
@Timeout(300)
class OverlapRefusalIT {
    private static final List<String> JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData");

    @TempDir
    Path dir;
    /** Everything the runs could touch: the bucket, a data dir, the scratch dir's parent. */
    private Path world;

    private Path bucket;
    private Path dataDir;

    @BeforeEach
    void world() throws IOException {
        world = Files.createDirectories(dir.resolve("world"));
        bucket = Fixtures.copyBucket("gzip", world.resolve("backups"));
        dataDir = Files.createDirectories(world.resolve("data/member0.etcd"));
        Files.writeString(
                Files.createDirectories(dataDir.resolve("member/snap")).resolve("db"), "the old data dir");
        Files.createSymbolicLink(world.resolve("link-to-bucket"), bucket);
    }

    @Test
    void aRestoreOntoTheBucketWithForce() throws IOException {
        refused(
                "restore.jar",
                List.of("restore", "--data-dir", bucket.toString(), "--force"),
                "--data-dir " + bucket + " is the Local bucket --store-container " + bucket);
    }

    @Test
    void aRestoreOntoTheBucketsParentWithForce() throws IOException {
        refused(
                "restore.jar",
                List.of("restore", "--data-dir", bucket.getParent().toString(), "--force"),
                "--data-dir " + bucket.getParent() + " contains the Local bucket --store-container " + bucket);
    }

    @Test
    void aRestoreOntoASymlinkToTheBucketWithForce() throws IOException {
        refused(
                "restore.jar",
                List.of("restore", "--data-dir", world.resolve("link-to-bucket").toString(), "--force"),
                "--data-dir " + world.resolve("link-to-bucket") + " is (resolved: " + bucket.toRealPath()
                        + ") the Local bucket --store-container " + bucket);
    }

    @Test
    void aRestoreWhoseScratchDirLiesInsideItsDataDir() throws IOException {
        Path scratch = dataDir.resolve("scratch");
        refused(
                "restore.jar",
                List.of("restore", "--data-dir", dataDir.toString(), "--force"),
                List.of("--scratch-dir", scratch.toString()),
                "--scratch-dir " + scratch + " lies inside --data-dir " + dataDir);
    }

    @Test
    void anExtractOfFilesOntoTheBucketWithForce() throws IOException {
        refused(
                "restore.jar",
                List.of("extract", "--prefix", "/", "--output", bucket.toString(), "--force"),
                "--output " + bucket + " is the Local bucket --store-container " + bucket);
    }

    @Test
    void anExtractAsADataDirInsideTheBucket() throws IOException {
        Path output = bucket.resolve("v2/extracted");
        refused(
                "restore.jar",
                List.of("extract", "--prefix", "/", "--output-format=etcd", "--output", output.toString(), "--force"),
                "--output " + output + " lies inside the Local bucket --store-container " + bucket);
    }

    @Test
    void aCompactionWhoseScratchDirLiesInsideTheBucket() throws IOException {
        Path scratch = bucket.resolve("v2/scratch");
        refused(
                "worker.jar",
                List.of("compact"),
                List.of("--scratch-dir", scratch.toString()),
                "--scratch-dir " + scratch + " lies inside the Local bucket --store-container " + bucket);
    }

    @Test
    void aCompactionWhoseWalDirIsTheBucketThroughASymlink() throws IOException {
        Path wal = world.resolve("link-to-bucket");
        refused(
                "worker.jar",
                List.of("compact", "--scratch-wal-dir", wal.toString()),
                "--scratch-wal-dir " + wal + " is (resolved: " + bucket.toRealPath() + ") the Local bucket");
    }

    @Test
    void aSizeEstimateWhoseScratchDirLiesInsideTheBucket() throws IOException {
        Path scratch = bucket.resolve("v2");
        refused(
                "restore.jar",
                List.of("verify-backup", "--estimate-memory"),
                List.of("--scratch-dir", scratch.toString()),
                "--scratch-dir " + scratch + " lies inside the Local bucket --store-container " + bucket);
    }

    private void refused(String jar, List<String> args, String message) throws IOException {
        refused(jar, args, List.of("--scratch-dir", world.resolve("scratch").toString()), message);
    }

    private void refused(String jar, List<String> args, List<String> scratch, String message) throws IOException {
        Map<String, String> before = snapshot(world);
        Path work = Files.createDirectories(dir.resolve("work"));
        List<String> argv = new ArrayList<>(args);
        argv.addAll(List.of("--store-container", bucket.toString()));
        argv.addAll(scratch);
        List<String> jvm = new ArrayList<>(JVM);
        jvm.add("-Djava.io.tmpdir=" + work);
        JarRun run = JarRun.run(
                JarRun.jar(jar), Map.of("PATH", System.getenv("PATH")), work, jvm, argv.toArray(String[]::new));

        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ErrorCode.USAGE.exitCode());
        assertThat(run.stderr()).contains("refusing to run: " + message);
        JsonNode result = new ObjectMapper().readTree(run.stdout().strip());
        assertThat(result.get("errorCode").asText()).isEqualTo(ErrorCode.USAGE.name());
        assertThat(result.get("error").asText()).contains(message);
        assertThat(snapshot(world))
                .as("the bucket, the data dir and all beside them")
                .isEqualTo(before);
        assertThat(CrashChecks.entries(work))
                .as("the working dir (and temp dir)")
                .isEmpty();
        FileTree.delete(work);
    }

    /** Every entry under {@code root}, not following symlinks: a file's SHA-256, a dir, a link's target. */
    private static Map<String, String> snapshot(Path root) throws IOException {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                String what;
                if (Files.isSymbolicLink(p)) {
                    what = "-> " + Files.readSymbolicLink(p);
                } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    what = "dir";
                } else {
                    what = sha256(Files.readAllBytes(p));
                }
                entries.put(root.relativize(p).toString(), what);
            }
        }
        return entries;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
