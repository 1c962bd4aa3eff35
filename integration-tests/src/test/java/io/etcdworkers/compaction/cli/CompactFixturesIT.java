package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.RangeRequest;
import io.etcdworkers.etcd.EmbeddedEtcd;
import io.etcdworkers.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.etcd.EtcdGrpcClient;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.format.FullSnapshotReader;
import io.etcdworkers.format.FullSnapshotSummary;
import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.format.SnapshotStreams;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.store.LocalDirectoryStore;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.EtcdTestEnvironment;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.Processes;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Compacting every fixture bucket gives a full snapshot that sorts as the new base, verifies,
 * and restores (with our restore command, through etcd's own snapshot restore) to exactly the
 * source's state with the history gone.
 */
@Timeout(300)
class CompactFixturesIT {
    @TempDir
    Path dir;

    static CommandRun compact(Path workingDir, Path bucket, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "compact",
                "--store-container",
                bucket.toString(),
                "--scratch-dir",
                workingDir.resolve("scratch").toString()));
        args.addAll(List.of(extra));
        return CommandRun.run(
                WorkerContext::new,
                (c, a) -> CompactionWorkerCommand.run(c, a),
                Map.of("PATH", System.getenv("PATH")),
                workingDir,
                args.toArray(String[]::new));
    }

    @ParameterizedTest
    @CsvSource({
        "plain, none, replay",
        "plain, none, offline",
        "gzip, gzip, offline",
        "zlib, zlib, offline",
        "lzw, lzw, replay",
        "lzw, lzw, offline"
    })
    void compactedSnapshotIsTheNewBaseAndRestoresToTheSourceState(String name, String codec, String engine)
            throws Exception {
        Path bucket = Fixtures.copyBucket(name, dir.resolve("bucket"));

        CommandRun run = compact(dir, bucket, "--engine=" + engine);

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        assertThat(result.get("engine").asText()).isEqualTo(engine);
        JsonNode uploaded = result.get("uploaded");
        assertThat(uploaded.get("compression").asText()).isEqualTo(codec);
        assertThat(uploaded.get("name").asText()).startsWith("v2/Full-00000000-00003656-");
        if (engine.equals("replay")) {
            assertThat(result.get("dbSizeAfterCompaction").asLong())
                    .isLessThan(result.get("dbSizeBeforeCompaction").asLong());
        }

        SnapshotSelection selection =
                SnapshotCatalog.load(new LocalDirectoryStore(bucket), "").select();
        assertThat(selection.base().key()).isEqualTo(uploaded.get("name").asText());
        assertThat(selection.deltas()).isEmpty();
        try (InputStream in = SnapshotStreams.openDecompressed(new LocalDirectoryStore(bucket), selection.base())) {
            FullSnapshotSummary summary =
                    FullSnapshotReader.copy(selection.base().key(), in, null, false);
            assertThat(summary.hasHash()).isTrue();
            assertThat(summary.sha256()).isEqualTo(uploaded.get("sha256").asText());
        }

        Path dataDir = dir.resolve("restored");
        CommandRun restore = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                "restore",
                "--store-container",
                bucket.toString(),
                "--data-dir",
                dataDir.toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString());
        assertThat(restore.exitCode()).as(restore.stderr()).isZero();
        assertThat(restore.result().get("deltas").asInt()).isZero();
        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(3656);
        assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys());
        assertThat(served.leaseIds()).containsExactly(4390624984326916637L);
        assertHistoryIsGone(dataDir);
        Processes.awaitNoneMentioning(dir);
    }

    private void assertHistoryIsGone(Path dataDir) {
        EtcdMember member = EtcdMember.onFreeLoopbackPort();
        EtcdBinaries binaries =
                EtcdBinaries.locate(Optional.of(EtcdTestEnvironment.onPath().binDir()), "");
        try (EmbeddedEtcd etcd = EmbeddedEtcd.start(
                        EmbeddedEtcdConfig.defaults(binaries, member, dataDir, dir.resolve("history")));
                EtcdGrpcClient client = EtcdGrpcClient.connect(etcd.clientEndpoint(), Duration.ofSeconds(30))) {
            RangeRequest old = RangeRequest.newBuilder()
                    .setKey(ByteString.copyFromUtf8("/registry/"))
                    .setRangeEnd(ByteString.copyFromUtf8("/registry0"))
                    .setRevision(3655)
                    .build();
            assertThatThrownBy(() -> client.range(old)).hasMessageContaining("required revision has been compacted");
        }
    }

    @Test
    void secondRunIsSkippedWithoutStartingEtcd() throws IOException {
        Path bucket = Fixtures.copyBucket("gzip", dir.resolve("bucket"));
        assertThat(compact(dir, bucket).exitCode()).isZero();
        // what a run killed after its commit leaves: its scratch dir and its (no longer held) lock, with its marker
        Path dead = Files.createDirectories(dir.resolve("scratch/compact-4711/verify.etcd"));
        Files.writeString(
                dir.resolve("scratch/compact-4711.lock"), "etcd-workers scratch run compact-4711\npid 4711\n");

        CommandRun second =
                compact(dir, bucket, "--etcd-bin-dir", dir.resolve("no-etcd").toString());

        assertThat(second.exitCode()).as(second.stderr()).isZero();
        assertThat(dead.getParent())
                .as("the killed run's scratch dir, removed by the skipping run")
                .doesNotExist();
        try (var left = Files.list(dir.resolve("scratch"))) {
            assertThat(left).as("scratch").isEmpty();
        }
        assertThat(second.result().get("outcome").asText()).isEqualTo("skipped");
        assertThat(second.result().get("reason").asText()).contains("no deltas after the latest full snapshot");
    }

    @Test
    void belowThresholdsIsSkippedQuicklyAboveThemCompacted() {
        Path bucket = Fixtures.copyBucket("zlib", dir.resolve("bucket"));

        CommandRun below = compact(
                dir,
                bucket,
                "--min-delta-revisions=5000",
                "--min-delta-snapshots=11",
                "--min-delta-bytes=10Mi",
                "--etcd-bin-dir",
                dir.resolve("no-etcd").toString());

        assertThat(below.exitCode()).as(below.stderr()).isZero();
        assertThat(below.result().get("outcome").asText()).isEqualTo("skipped");
        assertThat(below.result().get("reason").asText())
                .contains("3055 revisions < --min-delta-revisions 5000", "10 deltas < --min-delta-snapshots 11");
        assertThat(Processes.etcdChildren()).isEmpty();

        CommandRun above = compact(dir, bucket, "--min-delta-revisions=3000", "--min-delta-snapshots=11");

        assertThat(above.exitCode()).as(above.stderr()).isZero();
        assertThat(above.result().get("outcome").asText()).isEqualTo("succeeded");
        assertThat(above.result().get("uploaded").get("compression").asText()).isEqualTo("zlib");
    }

    @Test
    void policyThatAlreadyCompactedAtTheLastRevisionIsFine() {
        Path bucket = Fixtures.copyBucket("gzip", dir.resolve("bucket"));

        // 10 deltas: the policy compacts and defragments after the last one, at revision 3656
        CommandRun run = compact(dir, bucket, "--defrag-every-deltas=10", "--engine=replay");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("defragmentations").get("count").asInt()).isEqualTo(1);
        assertThat(run.result().get("uploaded").get("name").asText()).contains("Full-00000000-00003656-");
    }

    @Test
    void compressionPolicyOverridesTheLastDeltasCodec() {
        Path bucket = Fixtures.copyBucket("plain", dir.resolve("bucket"));

        CommandRun run = compact(dir, bucket, "--compression-policy=lzw", "--no-defragment");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("uploaded").get("name").asText()).endsWith(".Z");
        CommandRun verify = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of(),
                dir,
                "verify-backup",
                "--store-container",
                bucket.toString());
        assertThat(verify.exitCode()).as(verify.stderr()).isZero();
        assertThat(verify.result().get("base").get("name").asText()).endsWith(".Z");
    }
}
