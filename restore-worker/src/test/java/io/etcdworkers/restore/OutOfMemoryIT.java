package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.testsupport.GeneratedBucket;
import io.etcdworkers.testsupport.JarRun;
import io.etcdworkers.testsupport.Processes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker's heap runs out: the restore's JVM gets 40 MB, the bucket 150,000 live keys of about
 * 200 bytes, and {@code --fold-memory=256Mi} tells the fold to hold them all on the heap (about
 * 330 bytes each). The worker must end with exit 35 and a result saying so, with its scratch
 * emptied and nothing in the target. A rerun in the same 40 MB with the budget left to itself
 * restores the same bucket: past two thirds of the heap beyond 64 MiB (its 8 MiB minimum here) the
 * fold moves its keys to partitions on disk.
 */
@Timeout(600)
class OutOfMemoryIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void anExhaustedHeapExits35WithAResultAndLeavesNothingBehind() throws Exception {
        GeneratedBucket bucket = GeneratedBucket.create(dir.resolve("bucket"), GeneratedBucket.Compression.GZIP, 35);
        String pad = "x".repeat(160);
        int key = 0;
        for (int t = 0; t < 300; t++) {
            List<String> puts = new ArrayList<>(500);
            for (int i = 0; i < 500; i++, key++) {
                puts.add(String.format("/registry/secrets/ns-%03d/%s-%06d", key % 211, pad, key));
            }
            bucket.transaction(puts, List.of(), 8);
            if (t % 100 == 99) {
                bucket.cutDelta();
            }
        }
        Path target = dir.resolve("data/new.etcd");
        Path scratch = dir.resolve("scratch");

        JarRun small = restore(bucket.root(), target, scratch, "--fold-memory=256Mi");

        assertThat(small.exitCode()).as(small.stderr()).isEqualTo(ErrorCode.OUT_OF_MEMORY.exitCode());
        JsonNode result = JSON.readTree(small.stdout());
        assertThat(result.get("outcome").asText()).isEqualTo("failed");
        assertThat(result.get("errorCode").asText()).isEqualTo("OUT_OF_MEMORY");
        assertThat(result.get("error").asText()).contains("Java heap (at most", "ran out", "--memory");
        try (var left = Files.list(scratch)) {
            assertThat(left)
                    .as("scratch emptied; the worker said: " + small.stderr())
                    .isEmpty();
        }
        assertThat(target).doesNotExist();
        assertThat(target.resolveSibling("new.etcd.part")).doesNotExist();
        Processes.awaitNoneMentioning(scratch);

        assertThat(small.stderr()).contains("--fold-memory of 256 MiB is more than the JVM's heap");

        JarRun partitioned = restore(bucket.root(), target, scratch, "--fold-memory=auto");

        assertThat(partitioned.exitCode()).as(partitioned.stderr()).isZero();
        JsonNode done = JSON.readTree(partitioned.stdout());
        assertThat(done.get("keys").asLong()).isEqualTo(600 + 150_000);
        assertThat(done.get("fold").get("partitions").asInt()).isEqualTo(64);
    }

    /**
     * One delta holds a 24 MB value (32 MB of base64 in its JSON), too large for the 40 MB heap to
     * decode: the failure names that delta, in {@code error} and as the result's {@code object},
     * so the operator knows which object needs the memory.
     */
    @Test
    void aDeltaThatExhaustsTheHeapIsNamedInTheResult() throws Exception {
        GeneratedBucket bucket = GeneratedBucket.create(dir.resolve("bucket"), GeneratedBucket.Compression.NONE, 36);
        bucket.put("/registry/configmaps/small", 100);
        String small = bucket.cutDelta();
        bucket.put("/registry/configmaps/huge", 24 << 20);
        String huge = bucket.cutDelta();
        Path target = dir.resolve("data/new.etcd");
        Path scratch = dir.resolve("scratch");

        JarRun run = restore(bucket.root(), target, scratch, "--fold-memory=auto");

        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ErrorCode.OUT_OF_MEMORY.exitCode());
        JsonNode result = JSON.readTree(run.stdout());
        assertThat(result.get("errorCode").asText()).isEqualTo("OUT_OF_MEMORY");
        assertThat(result.has("object")).as(result.toString()).isTrue();
        String object = result.get("object").asText();
        assertThat(object).as("the delta with the huge value, not %s", small).endsWith(huge);
        assertThat(result.get("error").asText())
                .contains("Java heap (at most", "--memory")
                .containsPattern("ran out while (decoding|applying revision [0-9]+ of) delta " + Pattern.quote(object));
        try (var left = Files.list(scratch)) {
            assertThat(left)
                    .as("scratch emptied; the worker said: " + run.stderr())
                    .isEmpty();
        }
        assertThat(target).doesNotExist();
        assertThat(target.resolveSibling("new.etcd.part")).doesNotExist();
        Processes.awaitNoneMentioning(scratch);
    }

    private JarRun restore(Path bucket, Path target, Path scratch, String foldMemory) {
        return JarRun.run(
                JarRun.jar("worker.jar"),
                Map.of("PATH", System.getenv("PATH")),
                dir,
                List.of("-Xmx40m", "-XX:+UseSerialGC"),
                "restore",
                "--store-container",
                bucket.toString(),
                "--data-dir",
                target.toString(),
                "--scratch-dir",
                scratch.toString(),
                foldMemory);
    }
}
