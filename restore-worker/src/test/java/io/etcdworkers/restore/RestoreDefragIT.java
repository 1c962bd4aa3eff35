package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.GeneratedBucket;
import io.etcdworkers.testsupport.GeneratedBucket.Compression;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The defragmentation policy at work on a history of many updates of the same keys: with a
 * policy that fires, the scratch database ends smaller than without, the number of
 * defragmentations is what the policy says, and the restored keyspace is the same.
 */
@Timeout(600)
class RestoreDefragIT {
    private static final int KEYS = 40;
    private static final int ROUNDS = 150;

    @TempDir
    static Path bucketDir;

    @TempDir
    Path dir;

    private static GeneratedBucket bucket;

    @BeforeAll
    static void manyUpdatesOfFewKeys() {
        bucket = GeneratedBucket.create(bucketDir.resolve("hot"), Compression.GZIP, 3);
        for (int d = 0; d < 6; d++) {
            bucket.hotKeys(KEYS, ROUNDS / 6, 4000);
            bucket.cutDelta();
        }
    }

    private JsonNode restore(String name, String... policy) {
        List<String> args = new ArrayList<>(List.of(
                "restore",
                "--store-container",
                bucket.root().toString(),
                "--data-dir",
                dir.resolve(name).toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString(),
                "--engine=replay"));
        args.addAll(List.of(policy));
        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        return run.result();
    }

    @Test
    void policyThatFiresEndsWithASmallerDatabaseAndTheCountItPromised() {
        JsonNode off =
                restore("off", "--defrag-every-events=0", "--defrag-db-size-bytes=0", "--defrag-fragmentation-ratio=0");
        JsonNode every1000 = restore(
                "on", "--defrag-every-events=1000", "--defrag-db-size-bytes=0", "--defrag-fragmentation-ratio=0");

        long events = (long) KEYS * ROUNDS;
        assertThat(off.get("events").asLong()).isEqualTo(events);
        assertThat(off.get("defragmentations").get("count").asInt()).isZero();
        assertThat(every1000.get("defragmentations").get("count").asLong()).isEqualTo(events / 1000);
        assertThat(every1000.get("defragmentations").get("lastTrigger").asText())
                .isEqualTo("events");
        assertThat(every1000.get("finalDbSize").asLong())
                .isLessThan(off.get("finalDbSize").asLong() / 2);
        assertThat(every1000.get("peakDbSize").asLong())
                .isLessThan(off.get("peakDbSize").asLong());
        assertThat(every1000.get("kvSha256").asText())
                .isEqualTo(off.get("kvSha256").asText());
        assertThat(every1000.get("metaSha256").asText())
                .isEqualTo(off.get("metaSha256").asText());
        assertThat(every1000.get("finalRevision").asLong()).isEqualTo(bucket.revision());
    }

    @Test
    void everyDeltasAndDatabaseSizeTriggersFireToo() {
        JsonNode everyTwoDeltas = restore(
                "deltas",
                "--defrag-every-events=0",
                "--defrag-every-deltas=2",
                "--defrag-db-size-bytes=0",
                "--defrag-fragmentation-ratio=0");
        JsonNode bySize = restore(
                "size", "--defrag-every-events=0", "--defrag-db-size-bytes=8Mi", "--defrag-fragmentation-ratio=0");

        assertThat(everyTwoDeltas.get("defragmentations").get("count").asInt()).isEqualTo(3);
        assertThat(everyTwoDeltas.get("defragmentations").get("lastTrigger").asText())
                .isEqualTo("deltas");
        assertThat(bySize.get("defragmentations").get("count").asInt()).isPositive();
        assertThat(bySize.get("defragmentations").get("lastTrigger").asText()).isEqualTo("db_size");
        assertThat(bySize.get("metaSha256").asText())
                .isEqualTo(everyTwoDeltas.get("metaSha256").asText());
    }
}
