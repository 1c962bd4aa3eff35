package io.etcdworkers.compaction.copy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.testsupport.CommandRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code copy} between two Local stores with etcdbrctl's flags: every source object lands in the
 * target byte for byte (a {@code .final} name without it), a rerun copies nothing and checks what it
 * finds, an object of the wrong size in the target is replaced, a damaged one too, {@code --dry-run}
 * writes nothing, and {@code --max-backups-to-copy} takes the newest backups only.
 */
@Timeout(120)
class LocalCopyIT {
    @TempDir
    Path dir;

    private Path source;
    private Path target;

    private List<String> args(String... more) {
        List<String> args = new ArrayList<>(List.of(
                "--storage-provider=Local",
                "--store-container=" + target,
                "--store-prefix=/target",
                "--source-storage-provider=Local",
                "--source-store-prefix=/source",
                "--source-store-container=" + source));
        args.addAll(List.of(more));
        return args;
    }

    private void sources() throws IOException {
        source = CopyRuns.localSource(dir.resolve("src"), "source", "gzip");
        target = dir.resolve("dst");
        Path v2 = source.resolve("source/v2");
        // the backup sidecar's last full snapshot before it stopped
        Files.move(
                v2.resolve("Full-00000000-00000601-1795986606.gz"),
                v2.resolve("Full-00000000-00000601-1795986606.gz.final"));
    }

    @Test
    void copiesEveryObjectByteForByteAndARerunOnlyChecks() throws IOException {
        sources();
        CommandRun first = CopyRuns.copy(Map.of(), dir, args());

        assertThat(first.exitCode()).as(first.stderr()).isZero();
        Map<String, Long> expected = new TreeMap<>();
        CopyRuns.files(source.resolve("source"))
                .forEach((name, size) -> expected.put(name.replace(".final", ""), size));
        assertThat(CopyRuns.files(target.resolve("target"))).isEqualTo(expected);
        for (String name : expected.keySet()) {
            Path from = source.resolve("source").resolve(name.startsWith("v2/Full") ? name + ".final" : name);
            assertThat(Files.mismatch(from, target.resolve("target").resolve(name)))
                    .as(name)
                    .isEqualTo(-1L);
        }
        JsonNode result = first.result();
        assertThat(result.get("outcome").asText()).isEqualTo("succeeded");
        assertThat(result.get("copiedCount").asInt()).isEqualTo(11);
        assertThat(result.get("checkedCount").asInt()).isEqualTo(11);
        assertThat(result.get("skippedCount").asInt()).isZero();
        assertThat(result.get("copied").get(0).asText()).isEqualTo("v2/Full-00000000-00000601-1795986606.gz");
        assertThat(CopyRuns.files(dir.resolve("tmp")))
                .as("nothing left in the temp dir")
                .isEmpty();

        CommandRun second = CopyRuns.copy(Map.of(), dir, args());

        assertThat(second.exitCode()).as(second.stderr()).isZero();
        assertThat(second.result().get("copiedCount").asInt()).isZero();
        assertThat(second.result().get("skippedCount").asInt()).isEqualTo(11);
        assertThat(second.result().get("checkedCount").asInt()).isEqualTo(11);
        assertThat(CopyRuns.files(target.resolve("target"))).isEqualTo(expected);
    }

    @Test
    void aWrongObjectInTheTargetIsReplacedAndADryRunWritesNothing() throws IOException {
        sources();
        Path v2 = target.resolve("target/v2");
        Files.createDirectories(v2);
        String cut = "Incr-00001173-00001750-1795986609.gz";
        String damaged = "Incr-00002342-00002920-1795986610.gz";
        Files.write(v2.resolve(cut), new byte[] {1, 2, 3});
        byte[] bytes = Files.readAllBytes(source.resolve("source/v2").resolve(damaged));
        bytes[bytes.length / 2] ^= 0x55; // same size, damaged inside
        Files.write(v2.resolve(damaged), bytes);

        CommandRun dry = CopyRuns.copy(Map.of(), dir, args("--dry-run"));

        assertThat(dry.exitCode()).as(dry.stderr()).isZero();
        assertThat(dry.result().get("dryRun").asBoolean()).isTrue();
        // a dry run compares sizes only: the damaged one has the right size
        assertThat(dry.result().get("copiedCount").asInt()).isEqualTo(10);
        assertThat(dry.result().get("replaced").toString()).contains(cut);
        assertThat(CopyRuns.files(target.resolve("target"))).containsOnlyKeys("v2/" + cut, "v2/" + damaged);

        CommandRun copy = CopyRuns.copy(Map.of(), dir, args());

        assertThat(copy.exitCode()).as(copy.stderr()).isZero();
        assertThat(copy.result().get("replacedCount").asInt()).isEqualTo(2);
        assertThat(Files.mismatch(source.resolve("source/v2").resolve(cut), v2.resolve(cut)))
                .isEqualTo(-1L);
        assertThat(Files.mismatch(source.resolve("source/v2").resolve(damaged), v2.resolve(damaged)))
                .isEqualTo(-1L);
    }

    @Test
    void maxBackupsTakesTheNewestFullSnapshotAndItsDeltas() throws IOException {
        sources();
        CommandRun copy = CopyRuns.copy(Map.of(), dir, args("--max-backups-to-copy=0"));

        assertThat(copy.exitCode()).as(copy.stderr()).isZero();
        assertThat(copy.result().get("selected").asInt()).isZero();
        assertThat(CopyRuns.files(target.resolve("target"))).isEmpty();

        CommandRun one =
                CopyRuns.copy(Map.of(), dir, args("--max-backups-to-copy=1", "--max-parallel-copy-operations=2"));

        assertThat(one.exitCode()).as(one.stderr()).isZero();
        assertThat(one.result().get("copiedCount").asInt()).isEqualTo(11);
    }

    @Test
    void aDamagedSourceObjectIsRefusedAndNothingOfItIsWritten() throws IOException {
        sources();
        String damaged = "Incr-00002921-00003499-1795986611.gz";
        Path file = source.resolve("source/v2").resolve(damaged);
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 20] ^= 0x55;
        Files.write(file, bytes);

        CommandRun copy = CopyRuns.copy(Map.of(), dir, args());

        assertThat(copy.exitCode()).as(copy.stderr()).isIn(12, 13, 15);
        assertThat(copy.result().get("error").asText()).contains(damaged);
        assertThat(CopyRuns.files(target.resolve("target")))
                .doesNotContainKey("v2/" + damaged)
                .hasSize(10);
    }
}
