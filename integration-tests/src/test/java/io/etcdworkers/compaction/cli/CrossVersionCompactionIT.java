package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.etcd.SnapshotRestorer;
import io.etcdworkers.format.FullSnapshotReader;
import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.format.SnapshotStreams;
import io.etcdworkers.store.LocalDirectoryStore;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.EtcdInstall;
import io.etcdworkers.testsupport.EtcdVersions;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.Processes;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A compaction run with etcd 3.5 (replayed into, or verified by, a 3.5 etcd; the replay's
 * snapshot streamed out of it) uploads a full snapshot that etcd 3.4's {@code etcdctl snapshot
 * restore} restores and etcd 3.4 starts on, serving the fixture's {@code expected/state.json}
 * digests; and etcd 3.5 does the same with its {@code etcdutl}. Needs both versions; skips only
 * when 3.5 is absent (see {@code EtcdVersions}).
 */
@Timeout(300)
class CrossVersionCompactionIT {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "--engine={0}")
    @ValueSource(strings = {"replay", "offline"})
    void aSnapshotCompactedWithEtcd35RestoresAndStartsUnderEtcd34And35(String engine) throws Exception {
        EtcdInstall v35 = EtcdVersions.v35();
        EtcdInstall v34 = EtcdVersions.v34();
        Path bucket = Fixtures.copyBucket("gzip", dir.resolve("bucket"));

        CommandRun run = CompactFixturesIT.compact(
                dir,
                bucket,
                "--engine=" + engine,
                "--etcd-bin-dir=" + v35.etcd().getParent());

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("engine").asText()).isEqualTo(engine);
        Path snapshot = newBase(bucket);
        JsonNode state = ExpectedState.stateJson();
        for (EtcdInstall etcd : List.of(v34, v35)) {
            Path dataDir = dir.resolve("restored-" + etcd.version());
            EtcdBinaries binaries = EtcdBinaries.locate(Optional.of(etcd.binDir()), "");
            new SnapshotRestorer(binaries, dir.resolve("scratch-" + etcd.version()), Duration.ofMinutes(2))
                    .restore(new SnapshotRestorer.Request(
                            snapshot, EtcdMember.onFreeLoopbackPort(), dataDir, Optional.empty(), false));

            ExpectedState.Served served = ExpectedState.serve(etcd, dataDir, dir.resolve("reader-" + etcd.version()));

            assertThat(served.etcdVersion()).isEqualTo(etcd.version().toString());
            assertThat(served.revision()).isEqualTo(state.get("revision").asLong());
            assertThat(served.digest().kvSha256())
                    .as("kv digest served by etcd %s", etcd.version())
                    .isEqualTo(state.get("kv_sha256").asText());
            assertThat(served.digest().metaSha256())
                    .as("meta digest served by etcd %s", etcd.version())
                    .isEqualTo(state.get("meta_sha256").asText());
        }
        Processes.awaitNoneMentioning(dir);
    }

    /** The compaction's new full snapshot, decompressed with its trailer checked. */
    private Path newBase(Path bucket) throws Exception {
        LocalDirectoryStore store = new LocalDirectoryStore(bucket);
        SnapshotSelection selection = SnapshotCatalog.load(store, "").select();
        assertThat(selection.deltas()).isEmpty();
        Path file = dir.resolve("new-base.db");
        try (InputStream in = SnapshotStreams.openDecompressed(store, selection.base());
                OutputStream out = Files.newOutputStream(file)) {
            assertThat(FullSnapshotReader.copy(selection.base().key(), in, out, false)
                            .hasHash())
                    .isTrue();
        }
        return file;
    }
}
