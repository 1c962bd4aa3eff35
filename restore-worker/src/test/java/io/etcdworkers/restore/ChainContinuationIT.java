package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.format.SnapshotKind;
import io.etcdworkers.format.SnapshotName;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.ProcessRun;
import io.etcdworkers.testsupport.ReferencePeer;
import io.etcdworkers.testsupport.RunningEtcd;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a point-in-time restore (default bump), an etcd started on the restored data dir with
 * etcd-backup-restore's snapshotter ({@code etcdbrctl snapshot}, v0.40.0) recording into the same
 * bucket continues the chain: its snapshots start above every revision already in the bucket, the
 * writes made after the restore reach the bucket, and a later restore of the bucket, ours and
 * etcdbrctl v0.23.0's, gives exactly what that etcd served. The bucket is the v0.23.0 fixture up
 * to revision {@value #BUCKET_LATEST} (stock etcdbrctl cannot apply the next delta); the writes
 * carry no lease (etcdbrctl drops the leases of the writes it replays).
 */
@Timeout(900)
class ChainContinuationIT {
    private static final long BUCKET_LATEST = 3644;
    private static final int WRITES = 30;

    @TempDir
    Path dir;

    @Test
    void theSidecarContinuesTheChainAndALaterRestoreGivesThePointInTimePlusTheWrites() throws Exception {
        Path snapshotter = ReferencePeer.V0_40_0.require();
        Path bucket = Files.createDirectories(dir.resolve("bucket"));
        copyUpToLatest(Fixtures.bucket(Fixtures.V0_23_0, "gzip"), bucket);
        List<String> before = names(bucket);
        long point = ExpectedState.stateJson(Fixtures.V0_23_0)
                .get("checkpoints_source")
                .get(2)
                .get("revision")
                .asLong();
        Path dataDir = dir.resolve("member/new.etcd");
        CommandRun restored = restore(bucket, dataDir, "--to-revision", Long.toString(point));
        assertThat(restored.exitCode()).as(restored.stderr()).isZero();

        long written;
        try (RunningEtcd etcd = RunningEtcd.start(dataDir, Files.createDirectories(dir.resolve("etcd-log")))) {
            Process sidecar = startSnapshotter(snapshotter, etcd, bucket);
            try {
                for (int i = 0; i < WRITES; i++) {
                    etcdctl(etcd, "put", "/after-restore/key-" + i, "value-" + i);
                }
                etcdctl(etcd, "del", "/after-restore/key-0");
                written = revision(etcd);
                await().atMost(Duration.ofMinutes(3))
                        .pollInterval(Duration.ofSeconds(1))
                        .until(() -> newest(bucket) >= written);
            } finally {
                sidecar.destroy();
                sidecar.waitFor(60, TimeUnit.SECONDS);
                sidecar.destroyForcibly();
            }
        }
        List<SnapshotName> added = names(bucket).stream()
                .filter(n -> !before.contains(n))
                .map(n -> SnapshotName.parse(n).orElseThrow())
                .toList();
        String log = Files.readString(dir.resolve("snapshotter.log"));
        assertThat(added).as(log).isNotEmpty();
        // every new snapshot lies above every revision the bucket held: nothing overlaps the old chain
        assertThat(added)
                .as(log)
                .allSatisfy(n -> assertThat(n.kind() == SnapshotKind.FULL ? n.lastRevision() : n.startRevision())
                        .isGreaterThan(BUCKET_LATEST + BumpSetting.MARGIN - 1));
        ExpectedState.Served live = ExpectedState.serve(dataDir, dir.resolve("serve-live"));
        assertThat(live.revision()).isEqualTo(written);
        assertThat(live.keys())
                .filteredOn(k -> new String(Base64.getDecoder().decode(k.key()), StandardCharsets.UTF_8)
                        .startsWith("/after-restore/"))
                .hasSize(WRITES - 1);

        Path again = dir.resolve("again/new.etcd");
        CommandRun ours = restore(bucket, again);
        assertThat(ours.exitCode()).as(ours.stderr()).isZero();
        ExpectedState.Served oursServed = ExpectedState.serve(again, dir.resolve("serve-again"));
        assertThat(oursServed.revision()).isEqualTo(written);
        assertThat(oursServed.keys()).isEqualTo(live.keys());

        Optional<Path> peer = ReferencePeer.V0_23_0.find();
        if (peer.isPresent()) {
            Path peerDir = dir.resolve("peer/new.etcd");
            ProcessRun run = ProcessRun.run(
                    List.of(
                            peer.get().toString(),
                            "restore",
                            "--storage-provider=Local",
                            "--store-container=" + bucket,
                            "--data-dir=" + peerDir,
                            "--restoration-temp-snapshots-dir=" + dir.resolve("peer-restoration-temp"),
                            "--snapstore-temp-directory=" + Files.createDirectories(dir.resolve("peer-temp"))),
                    Map.of("HOME", "/", "PATH", System.getenv("PATH")),
                    Duration.ofMinutes(5));
            assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
            ExpectedState.Served peerServed = ExpectedState.serve(peerDir, dir.resolve("serve-peer"));
            assertThat(peerServed.keys().stream().map(ExpectedState.Key::withoutLease))
                    .containsExactlyElementsOf(live.keys().stream()
                            .map(ExpectedState.Key::withoutLease)
                            .toList());
        }
    }

    private Process startSnapshotter(Path etcdbrctl, RunningEtcd etcd, Path bucket) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(
                etcdbrctl.toString(),
                "snapshot",
                "--endpoints=" + etcd.clientUrl(),
                "--storage-provider=Local",
                "--store-container=" + bucket,
                "--compress-snapshots=true",
                "--compression-policy=gzip",
                "--delta-snapshot-period=2s",
                "--schedule=0 0 1 1 *",
                "--garbage-collection-period=0s",
                "--snapstore-temp-directory=" + Files.createDirectories(dir.resolve("snapshotter-temp")));
        builder.environment().clear();
        builder.environment().put("HOME", "/");
        builder.environment().put("PATH", System.getenv("PATH"));
        builder.redirectErrorStream(true)
                .redirectOutput(dir.resolve("snapshotter.log").toFile());
        return builder.start();
    }

    private static void etcdctl(RunningEtcd etcd, String... args) {
        List<String> command = new ArrayList<>(List.of("etcdctl", "--endpoints=" + etcd.clientUrl()));
        command.addAll(List.of(args));
        ProcessRun.run(command, Map.of("PATH", System.getenv("PATH"), "ETCDCTL_API", "3"), Duration.ofSeconds(30))
                .requireSuccess(command);
    }

    private static long revision(RunningEtcd etcd) throws IOException {
        List<String> command =
                List.of("etcdctl", "--endpoints=" + etcd.clientUrl(), "-w", "json", "endpoint", "status");
        String json = ProcessRun.run(
                        command, Map.of("PATH", System.getenv("PATH"), "ETCDCTL_API", "3"), Duration.ofSeconds(30))
                .requireSuccess(command);
        JsonNode status = new ObjectMapper().readTree(json);
        return status.get(0).get("Status").get("header").get("revision").asLong();
    }

    private CommandRun restore(Path bucket, Path dataDir, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "restore",
                "--store-container",
                bucket.toString(),
                "--data-dir",
                dataDir.toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString()));
        args.addAll(List.of(extra));
        return CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                args.toArray(String[]::new));
    }

    /** The highest last revision a snapshot in the bucket names. */
    private static long newest(Path bucket) throws IOException {
        return names(bucket).stream()
                .map(n -> SnapshotName.parse(n).orElseThrow())
                .mapToLong(SnapshotName::lastRevision)
                .max()
                .orElse(0);
    }

    private static List<String> names(Path bucket) throws IOException {
        Path v2 = bucket.resolve("v2");
        try (Stream<Path> files = Files.list(v2)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> SnapshotName.parse(n).isPresent())
                    .sorted()
                    .toList();
        }
    }

    private static void copyUpToLatest(Path from, Path to) throws IOException {
        Files.createDirectories(to.resolve("v2"));
        try (Stream<Path> files = Files.list(from.resolve("v2"))) {
            for (Path p : files.toList()) {
                SnapshotName name =
                        SnapshotName.parse(p.getFileName().toString()).orElseThrow();
                if (name.lastRevision() <= BUCKET_LATEST) {
                    Files.copy(p, to.resolve("v2").resolve(p.getFileName()));
                }
            }
        }
    }
}
