package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.ProcessRun;
import io.etcdworkers.testsupport.ReferencePeer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * etcd-backup-restore's own data dir check ({@code etcdbrctl initialize}, v0.40.0, what the backup
 * sidecar runs before etcd starts) on a point-in-time restore of the bucket it backs up: the
 * default bump keeps the data dir byte for byte; without it ({@code --bump-revision=0}) the check
 * finds the revision below the bucket's latest snapshot and restores the latest state over it. The
 * bucket is the v0.23.0 fixture up to revision {@value #BUCKET_LATEST}.
 */
@Timeout(600)
class SidecarInitializeIT {
    /**
     * The test bucket ends with the fixture's delta that ends here: stock etcdbrctl cannot apply
     * the next one (one revision over its 2 MiB gRPC message limit), and the unbumped case needs it
     * to restore the latest state.
     */
    private static final long BUCKET_LATEST = 3644;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "bumped={0}")
    @ValueSource(booleans = {true, false})
    void theSidecarKeepsABumpedPointInTimeAndWipesAnUnbumpedOne(boolean bumped) throws Exception {
        Path etcdbrctl = ReferencePeer.V0_40_0.require();
        Path bucket = copyTree(Fixtures.bucket(Fixtures.V0_23_0, "gzip"), dir.resolve("bucket"));
        JsonNode checkpoint = ExpectedState.stateJson(Fixtures.V0_23_0)
                .get("checkpoints_source")
                .get(2);
        long point = checkpoint.get("revision").asLong();
        Path dataDir = dir.resolve("member/new.etcd");

        List<String> restore = new ArrayList<>(List.of(
                "restore",
                "--store-container",
                bucket.toString(),
                "--data-dir",
                dataDir.toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString(),
                "--to-revision",
                Long.toString(point)));
        if (!bumped) {
            restore.add("--bump-revision=0");
        }
        CommandRun run = CommandRun.run(
                io.etcdworkers.workercli.WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                restore.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        String before = sha256(dataDir.resolve("member/snap/db"));

        ProcessRun initialize = ProcessRun.run(
                List.of(
                        etcdbrctl.toString(),
                        "initialize",
                        "--storage-provider=Local",
                        "--store-container=" + bucket,
                        "--data-dir=" + dataDir,
                        "--snapstore-temp-directory=" + Files.createDirectories(dir.resolve("snapstore-temp")),
                        "--restoration-temp-snapshots-dir=" + dir.resolve("restoration-temp"),
                        "--name=default",
                        "--initial-cluster=default=http://localhost:2380",
                        "--initial-advertise-peer-urls=http://localhost:2380",
                        "--initial-cluster-token=etcd-cluster",
                        "--max-request-bytes=10485760",
                        "--max-call-send-message-size=10485760"),
                Map.of("HOME", "/", "PATH", System.getenv("PATH"), "POD_NAME", "default", "POD_NAMESPACE", "default"),
                Duration.ofMinutes(5));
        String said = initialize.stdout() + initialize.stderr();

        if (bumped) {
            assertThat(initialize.exitCode()).as(said).isZero();
            assertThat(said).doesNotContain("less than latest snapshot revision");
            assertThat(sha256(dataDir.resolve("member/snap/db"))).as(said).isEqualTo(before);
            ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("serve"));
            assertThat(served.revision()).isEqualTo(BUCKET_LATEST + BumpSetting.MARGIN);
            assertThat(served.digest().kvSha256())
                    .isEqualTo(checkpoint.get("kv_sha256").asText());
        } else {
            // the verdict and the decision to restore the latest state over the data dir; outside a
            // pod the peer's restore then stops at the member URL (it reads them from druid's
            // /var/etcd/config/etcd.conf.yaml), so its exit code is not the point here
            assertThat(said)
                    .contains(
                            "current etcd revision (" + point + ") is less than latest snapshot revision ("
                                    + BUCKET_LATEST + ")",
                            "possible data loss",
                            "Finding latest set of snapshot to recover from");
        }
    }

    private static Path copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : paths.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!p.getFileName().toString().startsWith("Incr-")
                        || Long.parseLong(p.getFileName().toString().substring(5, 13)) <= BUCKET_LATEST) {
                    Files.copy(p, target);
                }
            }
        }
        return to;
    }

    private static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), sha)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(sha.digest());
    }
}
