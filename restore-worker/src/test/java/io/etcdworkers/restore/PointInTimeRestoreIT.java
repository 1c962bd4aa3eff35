package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code restore --to-revision} on the real fixture buckets gives exactly the keyspace of that
 * revision: at every checkpoint {@code expected/state.json} recorded from the source etcd, and at
 * revisions drawn at random, checked against {@link HistoryModel} (a keyspace computed without
 * the worker's code). Both engines; the replay on a subset, for time.
 */
@Timeout(600)
class PointInTimeRestoreIT {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}/{1} {2}")
    @CsvSource({
        "etcdbr-v0.23.0, gzip, offline, 1",
        "etcdbr-v0.23.0, gzip, replay, 3",
        "etcdbr-v0.41.2, gzip, offline, 1",
        "etcdbr-v0.41.2, gzip, replay, 4",
        "etcdbr-v0.23.0, compacted, offline, 2"
    })
    void everyCheckpointRestoresToTheSourcesKeyspaceAtThatRevision(
            String fixture, String bucket, String engine, int every) {
        JsonNode checkpoints = ExpectedState.stateJson(fixture).get("checkpoints_source");
        HistoryModel model = model(fixture, bucket);
        int n = 0;
        for (JsonNode checkpoint : checkpoints) {
            if (n++ % every != 0) {
                continue;
            }
            long revision = checkpoint.get("revision").asLong();
            ExpectedState.Digest modelled = ExpectedState.Digest.of(model.at(revision));
            assertThat(modelled.kvSha256())
                    .as("the model agrees with the source at %d", revision)
                    .isEqualTo(checkpoint.get("kv_sha256").asText());

            JsonNode result = restoreTo(fixture, bucket, engine, revision);

            assertThat(result.get("finalRevision").asLong()).isEqualTo(revision);
            assertThat(result.get("keys").asLong())
                    .isEqualTo(checkpoint.get("keys").asLong());
            assertThat(result.get("kvSha256").asText())
                    .as("kv at %d", revision)
                    .isEqualTo(checkpoint.get("kv_sha256").asText());
            assertThat(result.get("metaSha256").asText())
                    .as("meta at %d", revision)
                    .isEqualTo(checkpoint.get("meta_sha256").asText());
            JsonNode point = result.get("pointInTime");
            assertThat(point.get("requested").get("revision").asLong()).isEqualTo(revision);
            assertThat(point.get("reachedRevision").asLong()).isEqualTo(revision);
            assertThat(point.get("complete").asBoolean()).isTrue();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"etcdbr-v0.23.0, offline", "etcdbr-v0.23.0, replay", "etcdbr-v0.41.2, offline", "etcdbr-v0.41.2, replay"
    })
    void revisionsDrawnAtRandomRestoreToTheModelsKeyspace(String fixture, String engine) {
        HistoryModel model = model(fixture, "gzip");
        long first = model.events().get(0).mod();
        long last = model.events().get(model.events().size() - 1).mod();
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int i = 0; i < 2; i++) {
            long revision = first + (long) (random.nextDouble() * (last - first));
            ExpectedState.Digest expected = ExpectedState.Digest.of(model.at(revision));

            JsonNode result = restoreTo(fixture, "gzip", engine, revision);

            assertThat(result.get("finalRevision").asLong()).as("seed %d", seed).isEqualTo(revision);
            assertThat(result.get("keys").asLong())
                    .as("seed %d revision %d", seed, revision)
                    .isEqualTo(expected.keys());
            assertThat(result.get("kvSha256").asText())
                    .as("seed %d revision %d", seed, revision)
                    .isEqualTo(expected.kvSha256());
            assertThat(result.get("metaSha256").asText())
                    .as("seed %d revision %d", seed, revision)
                    .isEqualTo(expected.metaSha256());
        }
    }

    static HistoryModel model(String fixture, String bucket) {
        return HistoryModel.of(fixture, bucket);
    }

    private JsonNode restoreTo(String fixture, String bucket, String engine, long revision) {
        CommandRun run =
                restore(dir, Fixtures.bucket(fixture, bucket), engine, "--to-revision", Long.toString(revision));
        assertThat(run.exitCode()).as("revision %d: %s", revision, run.stderr()).isZero();
        assertThat(run.result().get("engine").asText()).isEqualTo(engine);
        return run.result();
    }

    /** Runs {@code restore} of {@code bucket} into a fresh data dir under {@code dir}. */
    static CommandRun restore(Path dir, Path bucket, String engine, String... extra) {
        Path dataDir = dir.resolve("data-" + System.nanoTime() + "/member.etcd");
        List<String> args = new ArrayList<>(List.of(
                "restore",
                "--store-container",
                bucket.toString(),
                "--data-dir",
                dataDir.toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString(),
                "--engine=" + engine));
        args.addAll(List.of(extra));
        return CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                args.toArray(String[]::new));
    }
}
