package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.GeneratedBucket;
import io.etcdworkers.testsupport.Processes;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A keyspace of 200,600 small keys (the fixture's 600 and 200,000 put by 400 transactions in 4
 * deltas) restored by both engines (the offline one with both {@code --verify-read} scopes), whose
 * verification must read each key once: etcd counts every
 * key of a range's rest on each request, so the result's {@code verifyRead.keysCounted} (the sum
 * of etcd's counts) shows whether the read was linear (about the keyspace) or quadratic (about
 * 40 million here, over pages of one unbounded range). Figures, not timings. The sampled
 * offline restore gets a fold memory of 8Mi, a fifth of what its keys take on the heap: its keys
 * go to disk partitions part way through the deltas, and it must end with the same keyspace.
 */
@Timeout(600)
class ManyKeysVerifyIT {
    private static final int TRANSACTIONS = 400;
    private static final int PUTS_PER_TRANSACTION = 500;
    private static final long KEYS = 600 + (long) TRANSACTIONS * PUTS_PER_TRANSACTION;

    @TempDir
    Path dir;

    private Path writeBucket() {
        GeneratedBucket b = GeneratedBucket.create(dir.resolve("bucket"), GeneratedBucket.Compression.GZIP, 18);
        int key = 0;
        for (int t = 0; t < TRANSACTIONS; t++) {
            List<String> puts = new ArrayList<>(PUTS_PER_TRANSACTION);
            for (int i = 0; i < PUTS_PER_TRANSACTION; i++, key++) {
                // namespaces interleave, so a transaction's keys scatter over the keyspace
                puts.add(String.format("/registry/configmaps/ns-%03d/cm-%06d", key % 331, key));
            }
            b.transaction(puts, List.of(), 16);
            if (t % 100 == 99) {
                b.cutDelta();
            }
        }
        return b.root();
    }

    @Test
    void bothEnginesReadEveryKeyOnceAndServeTheSameKeyspace() {
        Path bucket = writeBucket();
        CommandRun offline = restore(bucket, "offline", "--verify-read=all");
        CommandRun sampled = restore(bucket, "offline", "--fold-memory=8Mi");
        CommandRun replay = restore(bucket, "replay");

        JsonNode o = offline.result();
        JsonNode s = sampled.result();
        JsonNode r = replay.result();
        assertThat(o.get("keys").asLong()).isEqualTo(KEYS);
        assertThat(o.get("fold").get("partitions").asInt())
                .as("the keys fit the heap")
                .isZero();
        assertThat(s.get("fold").get("memoryBudgetBytes").asLong()).isEqualTo(8L << 20);
        assertThat(s.get("fold").get("partitions").asInt()).isEqualTo(64);
        assertThat(s.get("fold").get("partitionedBytes").asLong()).isPositive();
        assertThat(r.has("fold")).as("the replay folds nothing").isFalse();
        for (String field : List.of("finalRevision", "keys", "kvSha256", "metaSha256")) {
            assertThat(r.get(field)).as(field).isEqualTo(o.get(field));
            assertThat(s.get(field)).as(field).isEqualTo(o.get(field));
        }
        // the fold knows the keys in order: one range per page of 500, one request each
        JsonNode offlineRead = o.get("verifyRead");
        assertThat(offlineRead.get("scope").asText()).isEqualTo("all");
        assertThat(offlineRead.get("keysRead").asLong()).isEqualTo(KEYS);
        assertThat(offlineRead.get("ranges").asLong()).isEqualTo((KEYS + 499) / 500);
        assertThat(offlineRead.get("rangeRequests").asLong())
                .isEqualTo(offlineRead.get("ranges").asLong());
        assertThat(offlineRead.get("keysCounted").asLong()).isEqualTo(KEYS);
        // the default: etcd's HashKV matched the file, whose every key was checked; etcd served 16 ranges
        JsonNode sampledRead = s.get("verifyRead");
        assertThat(sampledRead.get("scope").asText()).isEqualTo("sample");
        assertThat(sampledRead.get("hashKv").asLong())
                .isEqualTo(offlineRead.get("hashKv").asLong())
                .isPositive();
        assertThat(sampledRead.get("ranges").asLong()).isEqualTo(16);
        assertThat(sampledRead.get("rangeRequests").asLong()).isEqualTo(16);
        // ranges of 500 keys each, but the last one: it holds the rest
        assertThat(sampledRead.get("keysRead").asLong()).isEqualTo(15L * 500 + KEYS % 500);
        assertThat(sampledRead.get("keysCounted").asLong())
                .isEqualTo(sampledRead.get("keysRead").asLong());
        // the replay samples the keys it saw: ranges of about 500, a few of them read in two pages
        JsonNode replayRead = r.get("verifyRead");
        assertThat(replayRead.get("keysRead").asLong()).isEqualTo(KEYS);
        assertThat(replayRead.get("ranges").asLong()).isBetween(KEYS / 1000, KEYS / 100);
        assertThat(replayRead.get("rangeRequests").asLong())
                .isLessThan(2 * replayRead.get("ranges").asLong());
        assertThat(replayRead.get("keysCounted").asLong()).isLessThan(3 * KEYS);
        Processes.awaitNoneMentioning(dir.resolve("scratch-replay0"));
    }

    private CommandRun restore(Path bucket, String engine, String... extra) {
        String name = engine + extra.length + String.join("", extra).replaceAll("[^a-z0-9]", "");
        List<String> args = new ArrayList<>(List.of(
                "restore",
                "--store-container",
                bucket.toString(),
                "--engine=" + engine,
                "--data-dir",
                dir.resolve(name + "/data").toString(),
                "--scratch-dir",
                dir.resolve("scratch-" + name).toString()));
        args.addAll(List.of(extra));
        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                args.toArray(String[]::new));
        assertThat(run.exitCode()).as(engine + ": " + run.stderr()).isZero();
        return run;
    }
}
