package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.Processes;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bucket etcdbrctl v0.41.2 (what etcd-druid ships) recorded from a live etcd restores to
 * exactly the source's end state with both engines: the newer of its two full snapshots is the
 * base (the older chain and the delta that ends at the full's revision are not used), the
 * 420-put, 2.27 MB revision 3770 goes through (stock v0.41.2 fails there), lease C that no
 * snapshot holds is granted with its id, lease B revoked at 3769 is gone, and etcd's own
 * {@code hashkv} is the source's.
 */
@Timeout(300)
class EtcdbrV041FixtureIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"offline", "replay"})
    void restoresToTheSourceStateLeasesAndHashKvIncluded(String engine) {
        Path dataDir = dir.resolve("data/new.etcd");

        CommandRun run = restore(dataDir, "--engine=" + engine);

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        JsonNode state = ExpectedState.stateJson(Fixtures.V0_41_2);
        assertThat(result.get("engine").asText()).isEqualTo(engine);
        assertThat(result.get("base").get("name").asText()).isEqualTo("v2/Full-00000000-00002037-1796115300.gz");
        assertThat(result.get("deltas").asInt()).isEqualTo(7);
        assertThat(result.get("finalRevision").asLong()).isEqualTo(3783);
        assertThat(result.get("events").asLong()).isEqualTo(2185);
        assertThat(result.get("revisions").asLong()).isEqualTo(1746);
        assertThat(result.get("largestRevisionEvents").asInt()).isEqualTo(420);
        assertThat(result.get("keys").asLong()).isEqualTo(1264);
        assertThat(result.get("leasedKeys").asLong()).isEqualTo(23);
        assertThat(result.get("kvSha256").asText())
                .isEqualTo(state.get("kv_sha256").asText());
        assertThat(result.get("metaSha256").asText())
                .isEqualTo(state.get("meta_sha256").asText());

        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(3783);
        assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys(Fixtures.V0_41_2));
        assertThat(served.leaseIds()).containsExactlyInAnyOrder(Fixtures.V0_41_2_LEASE_A, Fixtures.V0_41_2_LEASE_C);
        assertHashKvIsTheSources(served, state);
        assertThat(dataDir.resolveSibling("new.etcd.part")).doesNotExist();
        Processes.awaitNoneMentioning(dir);
    }

    @Test
    void verifyBackupAcceptsTheBucketAndNamesTheNewerBase() {
        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                "verify-backup",
                "--store-container",
                Fixtures.bucket(Fixtures.V0_41_2, "gzip").toString());

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("outcome").asText()).isEqualTo("succeeded");
        assertThat(run.result().get("base").get("name").asText()).isEqualTo("v2/Full-00000000-00002037-1796115300.gz");
        assertThat(run.result().get("deltas").asInt()).isEqualTo(7);
        assertThat(run.result().get("lastRevision").asLong()).isEqualTo(3783);
    }

    /**
     * etcd's {@code hashkv} covers the key bucket since the compaction revision: a restore that
     * kept the history gives the source's figure, one compacted at the last revision (the offline
     * engine always is) gives the figure the fixture recorded for that case. Anything else is wrong.
     */
    static void assertHashKvIsTheSources(ExpectedState.Served served, JsonNode state) {
        if (served.compactRevision() == 3783) {
            assertThat(served.hashKv())
                    .as("hashkv compacted at 3783")
                    .isEqualTo(state.get("hashkv_of_a_restore_compacted_at_3783")
                            .get("hash")
                            .asLong());
        } else {
            assertThat(served.compactRevision())
                    .as("compact revision: none or the last")
                    .isLessThanOrEqualTo(0);
            assertThat(served.hashKv())
                    .as("hashkv with history")
                    .isEqualTo(state.get("hashkv").get("hash").asLong());
        }
    }

    private CommandRun restore(Path dataDir, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "restore",
                "--store-container",
                Fixtures.bucket(Fixtures.V0_41_2, "gzip").toString(),
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
