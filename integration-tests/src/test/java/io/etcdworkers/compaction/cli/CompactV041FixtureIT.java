package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.store.LocalDirectoryStore;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.Processes;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compacting the bucket etcdbrctl v0.41.2 recorded (stock v0.41.2 cannot: its client refuses the
 * 2.27 MB revision 3770) gives one gzip full snapshot at 3783 that becomes the new base and
 * restores to exactly the source's end state: every key with its lease, both live leases, and
 * the {@code hashkv} the fixture recorded for a data dir compacted at 3783.
 */
@Timeout(300)
class CompactV041FixtureIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"offline", "replay"})
    void compactedSnapshotRestoresToTheSourceState(String engine) {
        Path bucket = Fixtures.copyBucket(Fixtures.V0_41_2, "gzip", dir.resolve("bucket"));

        CommandRun run = CompactFixturesIT.compact(dir, bucket, "--engine=" + engine);

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode uploaded = run.result().get("uploaded");
        assertThat(uploaded.get("name").asText())
                .startsWith("v2/Full-00000000-00003783-")
                .endsWith(".gz");
        assertThat(uploaded.get("compression").asText()).isEqualTo("gzip");
        SnapshotSelection selection =
                SnapshotCatalog.load(new LocalDirectoryStore(bucket), "").select();
        assertThat(selection.base().key()).isEqualTo(uploaded.get("name").asText());
        assertThat(selection.deltas()).isEmpty();

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
        JsonNode state = ExpectedState.stateJson(Fixtures.V0_41_2);
        assertThat(restore.result().get("metaSha256").asText())
                .isEqualTo(state.get("meta_sha256").asText());
        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(3783);
        assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys(Fixtures.V0_41_2));
        assertThat(served.leaseIds()).containsExactlyInAnyOrder(Fixtures.V0_41_2_LEASE_A, Fixtures.V0_41_2_LEASE_C);
        assertThat(served.compactRevision()).isEqualTo(3783);
        assertThat(served.hashKv())
                .isEqualTo(state.get("hashkv_of_a_restore_compacted_at_3783")
                        .get("hash")
                        .asLong());
        Processes.awaitNoneMentioning(dir);
    }
}
