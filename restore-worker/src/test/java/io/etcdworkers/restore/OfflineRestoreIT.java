package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.bolt.BoltFiles;
import io.etcdworkers.bolt.BoltReader;
import io.etcdworkers.bolt.BoltWriter;
import io.etcdworkers.bolt.BucketWriter;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.EtcdTestEnvironment;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.GeneratedBucket;
import io.etcdworkers.testsupport.Processes;
import io.etcdworkers.testsupport.RandomHistory;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The offline engine against the truth: every fixture bucket restores to the source etcd's
 * exact state, and on random histories (re-created keys, empty values, multi-key revisions,
 * deletes of base and new keys, leases the base lacks) the offline restore serves exactly
 * what the replay restore serves, read back from real etcds.
 */
@Timeout(600)
class OfflineRestoreIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"plain", "gzip", "zlib", "lzw"})
    void fixtureBucketsRestoreToTheSourceStateLeasesIncluded(String bucket) {
        Path dataDir = dir.resolve("data/new.etcd");

        CommandRun run = restore(Fixtures.bucket(bucket), dataDir, "--engine=offline");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        JsonNode state = ExpectedState.stateJson();
        assertThat(result.get("engine").asText()).isEqualTo("offline");
        assertThat(result.get("finalRevision").asLong()).isEqualTo(3656);
        assertThat(result.get("events").asLong()).isEqualTo(3472);
        assertThat(result.get("revisions").asLong()).isEqualTo(3055);
        assertThat(result.get("kvSha256").asText())
                .isEqualTo(state.get("kv_sha256").asText());
        assertThat(result.get("metaSha256").asText())
                .isEqualTo(state.get("meta_sha256").asText());
        // lease a1d is live with 20 keys and was not in the base; a3f lost all its keys: not written
        assertThat(result.get("leasesGranted").asInt()).isEqualTo(1);
        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(3656);
        assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys());
        assertThat(served.leaseIds()).containsExactly(4390624984326916637L);
        assertThat(dataDir.resolveSibling("new.etcd.part")).doesNotExist();
        Processes.awaitNoneMentioning(dir);
    }

    @Test
    void aBaseThatIsAlreadyTheWholeStateRestoresAsItIs() {
        Path dataDir = dir.resolve("data/new.etcd");

        CommandRun run = restore(Fixtures.bucket("compacted"), dataDir, "--engine=offline");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        assertThat(result.get("deltas").asInt()).isZero();
        // etcdbrctl's compacted snapshot holds one entry per live key: nothing to fold, so etcd
        // restores and serves that database itself instead of a rewritten one
        assertThat(result.get("fold").get("baseAsIs").asBoolean()).isTrue();
        // its meta says compacted at 3656, the name's revision: etcd opened it during the fold
        assertThat(result.get("fold").get("earlyStart").asText()).isEqualTo("used");
        assertThat(result.get("leasesGranted").asInt()).isZero();
        assertThat(result.get("kvSha256").asText())
                .isEqualTo(ExpectedState.stateJson().get("kv_sha256").asText());
        // the HashKV the fixture's README gives for etcd on that very database, at the head
        assertThat(result.get("verifyRead").get("hashKv").asLong()).isEqualTo(3421576064L);
        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(3656);
        assertThat(served.keys())
                .containsExactlyElementsOf(ExpectedState.keys().stream()
                        .map(ExpectedState.Key::withoutLease)
                        .toList());
        assertThat(dir.resolve("scratch")).isEmptyDirectory();
    }

    @Test
    void aBaseWithHistoryAndNoDeltaIsStillRewrittenCompacted() {
        Path dataDir = dir.resolve("data/new.etcd");

        // the v0.41.2 sidecar's full snapshot at 2037 holds every revision since 522, deletes included
        // (not bumped: the database at 2037 itself is what is checked)
        CommandRun run = restore(
                Fixtures.bucket(Fixtures.V0_41_2, "gzip"),
                dataDir,
                "--engine=offline",
                "--to-revision=2037",
                "--bump-revision=0");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        assertThat(result.get("base").get("name").asText()).isEqualTo("v2/Full-00000000-00002037-1796115300.gz");
        assertThat(result.get("deltas").asInt()).isZero();
        assertThat(result.get("fold").get("baseAsIs").asBoolean()).isFalse();
        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(2037);
        assertThat(served.keys()).hasSize(result.get("keys").asInt());
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13})
    void randomHistoriesServeExactlyWhatTheReplayServes(long seed) {
        GeneratedBucket bucket = RandomHistory.write(dir.resolve("bucket"), seed);

        CommandRun replay = restore(bucket.root(), dir.resolve("replay/data"), "--engine=replay");
        CommandRun offline = restore(bucket.root(), dir.resolve("offline/data"), "--engine=offline");

        assertThat(replay.exitCode()).as(replay.stderr()).isZero();
        assertThat(offline.exitCode()).as(offline.stderr()).isZero();
        for (String field :
                List.of("finalRevision", "events", "revisions", "keys", "leasedKeys", "kvSha256", "metaSha256")) {
            assertThat(offline.result().get(field))
                    .as(field)
                    .isEqualTo(replay.result().get(field));
        }
        ExpectedState.Served fromReplay = ExpectedState.serve(dir.resolve("replay/data"), dir.resolve("reader1"));
        ExpectedState.Served fromOffline = ExpectedState.serve(dir.resolve("offline/data"), dir.resolve("reader2"));
        assertThat(fromOffline.revision()).isEqualTo(bucket.revision()).isEqualTo(fromReplay.revision());
        assertThat(fromOffline.keys()).containsExactlyElementsOf(fromReplay.keys());
        assertThat(fromOffline.leaseIds()).containsExactlyInAnyOrder(fromReplay.leaseIds());
        Processes.awaitNoneMentioning(dir);
    }

    @Test
    void theDefaultEngineIsOffline() {
        CommandRun run = restore(Fixtures.bucket("gzip"), dir.resolve("data/new.etcd"));

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("engine").asText()).isEqualTo("offline");
        assertThat(run.result().has("engineFallback")).isFalse();
    }

    @Test
    void autoFallsBackToTheReplayWhenTheBaseIsNotWhatTheOfflineEngineReads() throws Exception {
        Path bucket = bucketWithABaseWithoutMeta();

        CommandRun offline = restore(bucket, dir.resolve("offline/data"), "--engine=offline");

        assertThat(offline.exitCode()).isEqualTo(ErrorCode.UNSUPPORTED_OBJECT.exitCode());
        assertThat(offline.result().get("error").asText()).contains("Full-00000000-00000601", "--engine=replay");
        assertThat(dir.resolve("offline/data")).doesNotExist();
        assertThat(dir.resolve("offline/data.part")).doesNotExist();
        // 3.4-specific: etcdctl 3.4 restores a base without 'meta' (etcd recreates the bucket), so
        // the replay can take over; etcdutl 3.5 exits 1 on it (it writes the consistent index into
        // 'meta'), so under 3.5 neither engine restores this base and there is no fallback to show.
        assumeTrue(
                EtcdTestEnvironment.onPath().version().minor() == 4,
                "etcdutl 3.5 does not restore a base without a 'meta' bucket: the fallback is shown with etcd 3.4");

        CommandRun auto = restore(bucket, dir.resolve("auto/data"));

        assertThat(auto.exitCode()).as(auto.stderr()).isZero();
        assertThat(auto.result().get("engine").asText()).isEqualTo("replay");
        assertThat(auto.result().get("engineFallback").asText()).contains("Full-00000000-00000601", "'meta'");
        assertThat(auto.result().get("kvSha256").asText())
                .isEqualTo(ExpectedState.stateJson().get("kv_sha256").asText());
        ExpectedState.Served served = ExpectedState.serve(dir.resolve("auto/data"), dir.resolve("reader"));
        assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys());
        Processes.awaitNoneMentioning(dir);
    }

    /**
     * The plain fixture bucket with its base rewritten without the {@code meta} bucket: etcd
     * recreates that bucket when it opens such a database, the offline engine refuses it.
     */
    private Path bucketWithABaseWithoutMeta() throws Exception {
        Path bucket = Fixtures.copyBucket("plain", dir.resolve("bucket"));
        Path base = bucket.resolve("v2/Full-00000000-00000601-1795986606");
        Path rewritten = dir.resolve("rewritten.db");
        try (BoltReader in = BoltReader.open(base);
                BoltWriter out = BoltWriter.create(rewritten, 4096)) {
            for (byte[] name : in.bucketNames()) {
                if (new String(name, StandardCharsets.US_ASCII).equals("meta")) {
                    continue;
                }
                try (BucketWriter b = out.bucket(name)) {
                    in.forEach(name, (k, v, isBucket) -> b.put(k, v));
                }
            }
            out.finish();
        }
        BoltFiles.appendSha256Trailer(rewritten);
        Files.move(rewritten, base, StandardCopyOption.REPLACE_EXISTING);
        Files.createDirectories(dir.resolve("offline"));
        return bucket;
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
        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                args.toArray(String[]::new));
        try (var left = Files.list(dir.resolve("scratch"))) {
            assertThat(left).as("scratch emptied").isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return run;
    }
}
