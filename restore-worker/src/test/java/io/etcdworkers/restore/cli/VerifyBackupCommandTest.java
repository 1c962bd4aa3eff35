package io.etcdworkers.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.GeneratedBucket;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(120)
class VerifyBackupCommandTest {
    @TempDir
    Path dir;

    private CommandRun verify(Map<String, String> env, String... args) {
        return CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run, env, dir, prepend("verify-backup", args));
    }

    private static String[] prepend(String first, String[] rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    @ParameterizedTest
    @ValueSource(strings = {"plain", "gzip", "zlib", "lzw", "compacted"})
    void everyFixtureBucketVerifies(String bucket) {
        CommandRun run =
                verify(Map.of(), "--store-container", Fixtures.bucket(bucket).toString());

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        assertThat(result.get("outcome").asText()).isEqualTo("succeeded");
        assertThat(result.get("lastRevision").asLong()).isEqualTo(3656);
        if (bucket.equals("compacted")) {
            assertThat(result.get("base").get("name").asText()).isEqualTo("v2/Full-00000000-00003656-1795986628");
            assertThat(result.get("deltas").asInt()).isZero();
        } else {
            assertThat(result.get("deltas").asInt()).isEqualTo(10);
            assertThat(result.get("events").asLong()).isEqualTo(3472);
        }
    }

    @Test
    void theSizeEstimateCountsTheBasesKeysAndTheKeysDeltasCreateAndLeavesNoFileBehind() throws IOException {
        // the compacted bucket's base is the fixture's end state: one entry per live key
        Path scratch = dir.resolve("scratch");
        CommandRun compacted = verify(
                Map.of(),
                "--store-container",
                Fixtures.bucket("compacted").toString(),
                "--estimate-memory",
                "--scratch-dir",
                scratch.toString());
        assertThat(compacted.exitCode()).as(compacted.stderr()).isZero();
        JsonNode size = compacted.result().get("sizeEstimate");
        assertThat(size.get("keysAtMost").asLong())
                .isEqualTo(ExpectedState.stateJson().get("keys").asLong());
        try (var left = Files.list(scratch)) {
            assertThat(left).as("the base written for counting is removed").isEmpty();
        }

        // the same base twice, once with deltas that create 1,000 keys and update 500 of them
        GeneratedBucket bare = GeneratedBucket.create(dir.resolve("bare"), GeneratedBucket.Compression.GZIP, 5);
        GeneratedBucket grown = GeneratedBucket.create(dir.resolve("grown"), GeneratedBucket.Compression.GZIP, 5);
        List<String> created =
                IntStream.range(0, 1000).mapToObj(i -> "/registry/new/" + i).toList();
        grown.transaction(created, List.of(), 100);
        grown.transaction(created.subList(0, 500), List.of(), 100);
        grown.cutDelta();
        JsonNode bareSize = estimate(bare.root());
        JsonNode grownSize = estimate(grown.root());
        assertThat(grownSize.get("keysAtMost").asLong()
                        - bareSize.get("keysAtMost").asLong())
                .isEqualTo(1000);
        assertThat(grownSize.get("databaseBytesAtMost").asLong())
                .isGreaterThan(bareSize.get("databaseBytesAtMost").asLong());
        long limit = grownSize.get("memoryLimitBytes").asLong();
        long parts =
                grownSize.get("etcdBytes").asLong() + grownSize.get("heapBytes").asLong() + 100L * 1024 * 1024;
        assertThat(limit).isBetween(parts + parts / 4, parts + parts / 4 + 64L * 1024 * 1024);
        assertThat(limit % (64L * 1024 * 1024)).isZero();
        assertThat(grownSize.get("heapPercent").asInt()).isBetween(10, 75);
    }

    @Test
    void aScratchDirThatCannotBeWrittenIsALocalFailureNotABadObject() throws IOException {
        Path notADir = Files.writeString(dir.resolve("a-file"), "x");
        CommandRun run = verify(
                Map.of(),
                "--store-container",
                Fixtures.bucket("compacted").toString(),
                "--estimate-memory",
                "--scratch-dir",
                notADir.resolve("scratch").toString());

        assertThat(run.exitCode()).isEqualTo(ErrorCode.LOCAL_IO.exitCode());
        assertThat(run.result().get("error").asText())
                .contains("cannot write a full snapshot under " + notADir.resolve("scratch"), "bbolt structure");
        assertThat(run.result().path("problems")).isEmpty();
    }

    private JsonNode estimate(Path bucket) {
        CommandRun run = verify(
                Map.of(),
                "--store-container",
                bucket.toString(),
                "--estimate-memory",
                "--scratch-dir",
                dir.resolve("scratch").toString());
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        return run.result().get("sizeEstimate");
    }

    @Test
    void containerFromStorageContainerVariable() {
        CommandRun run =
                verify(Map.of("STORAGE_CONTAINER", Fixtures.bucket("gzip").toString()));

        assertThat(run.exitCode()).as(run.stderr()).isZero();
    }

    @Test
    void badInputsEachGiveTheirOwnExitCodeAndNameTheObject() throws IOException {
        Set<Integer> codes = new HashSet<>();

        Path flipped = Fixtures.copyBucket("plain", dir.resolve("flipped"));
        Path delta = flipped.resolve("v2/Incr-00001173-00001750-1795986609");
        flipByte(delta, 1000);
        codes.add(expectFailure(
                verify(Map.of(), "--store-container", flipped.toString()),
                ErrorCode.HASH_MISMATCH,
                "Incr-00001173-00001750-1795986609"));

        Path truncated = Fixtures.copyBucket("gzip", dir.resolve("truncated"));
        Path gz = truncated.resolve("v2/Incr-00002342-00002920-1795986610.gz");
        try (RandomAccessFile file = new RandomAccessFile(gz.toFile(), "rw")) {
            file.setLength(file.length() / 2);
        }
        codes.add(expectFailure(
                verify(Map.of(), "--store-container", truncated.toString()),
                ErrorCode.TRUNCATED_OBJECT,
                "Incr-00002342-00002920-1795986610.gz"));

        Path suffix = Fixtures.copyBucket("plain", dir.resolve("suffix"));
        Files.move(
                suffix.resolve("v2/Incr-00003646-00003646-1795986619"),
                suffix.resolve("v2/Incr-00003646-00003646-1795986619.bz2"));
        codes.add(expectFailure(
                verify(Map.of(), "--store-container", suffix.toString()), ErrorCode.UNSUPPORTED_OBJECT, ".bz2"));

        Path gap = Fixtures.copyBucket("plain", dir.resolve("gap"));
        Files.delete(gap.resolve("v2/Incr-00001751-00002341-1795986610"));
        codes.add(expectFailure(
                verify(Map.of(), "--store-container", gap.toString()), ErrorCode.BACKUP_INCONSISTENT, "1751..2341"));

        codes.add(expectFailure(
                verify(
                        Map.of(),
                        "--store-container",
                        dir.resolve("no-such-bucket").toString()),
                ErrorCode.STORE_NOT_FOUND,
                "no-such-bucket"));

        Files.createDirectories(dir.resolve("empty/etcd-main"));
        codes.add(expectFailure(
                verify(Map.of(), "--store-container", dir.resolve("empty").toString(), "--store-prefix", "etcd-main"),
                ErrorCode.NO_SNAPSHOTS,
                "etcd-main"));

        assertThat(codes).hasSize(6);
    }

    @Test
    void reportsEveryBadObjectNotOnlyTheFirst() throws IOException {
        Path bucket = Fixtures.copyBucket("plain", dir.resolve("two"));
        flipByte(bucket.resolve("v2/Incr-00000602-00001172-1795986609"), 500);
        flipByte(bucket.resolve("v2/Incr-00003500-00003601-1795986613"), 500);

        CommandRun run = verify(Map.of(), "--store-container", bucket.toString());

        assertThat(run.exitCode()).isEqualTo(ErrorCode.HASH_MISMATCH.exitCode());
        assertThat(run.result().get("badObjects").asInt()).isEqualTo(2);
        assertThat(run.result().get("problems").toString())
                .contains("Incr-00000602-00001172-1795986609", "Incr-00003500-00003601-1795986613");
    }

    @Test
    void badGzipDeltasAreReportedInTheChainsOrderWhateverThreadFoundThem() throws IOException {
        Path bucket = Fixtures.copyBucket("gzip", dir.resolve("three"));
        List<String> bad = List.of(
                "Incr-00000602-00001172-1795986609.gz",
                "Incr-00002342-00002920-1795986610.gz",
                "Incr-00003645-00003645-1795986617.gz");
        // the compressed bytes damaged: a restore's whole read hands them to the JDK's reader
        for (String name : bad) {
            flipByte(bucket.resolve("v2/" + name), Files.size(bucket.resolve("v2/" + name)) / 2);
        }

        CommandRun run = verify(Map.of(), "--store-container", bucket.toString());

        assertThat(run.result().get("badObjects").asInt()).as(run.stderr()).isEqualTo(3);
        List<String> reported = new ArrayList<>();
        run.result().get("problems").forEach(p -> reported.add(p.get("object").asText()));
        assertThat(reported).containsExactly(bad.stream().map(n -> "v2/" + n).toArray(String[]::new));
    }

    @Test
    void unknownFlagIsAUsageError() {
        CommandRun run = verify(Map.of(), "--no-such-flag");

        assertThat(run.exitCode()).isEqualTo(ErrorCode.USAGE.exitCode());
        assertThat(run.stderr()).contains("--no-such-flag");
    }

    private static int expectFailure(CommandRun run, ErrorCode code, String named) {
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(code.exitCode());
        JsonNode result = run.result();
        assertThat(result.get("outcome").asText()).isEqualTo("failed");
        assertThat(result.get("errorCode").asText()).isEqualTo(code.name());
        assertThat(result.get("error").asText()).contains(named);
        return run.exitCode();
    }

    static void flipByte(Path file, long position) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(position);
            int b = raf.read();
            raf.seek(position);
            raf.write(b ^ 0x20);
        }
    }
}
