package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.workercli.WorkerContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The etcdbrctl v0.41.2 bucket holds two full snapshots, each with its chain of deltas to the
 * bucket's last revision 3783. When the newest full snapshot is damaged (or a garbage object is
 * named like one), the restore goes on from the older full snapshot and its deltas, which reach
 * the same revision, and says so; when the damaged object's name claims more than any sound chain
 * reaches, only {@code --to-last-good} takes the older chain, and says what it left out.
 */
@Timeout(600)
class DamagedNewestBaseIT {
    private static final String NEWEST = "Full-00000000-00002037-1796115300.gz";
    private static final String OLDER = "Full-00000000-00000521-1796115241.gz";

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"offline", "replay"})
    void aDamagedNewestFullSnapshotIsSetAsideForTheOlderChainThatReachesTheSameRevision(String engine)
            throws IOException {
        Path bucket = bucket();
        flipOneByte(bucket.resolve("v2").resolve(NEWEST));
        ExpectedState.Digest latest = ExpectedState.Digest.of(ExpectedState.keys(Fixtures.V0_41_2));

        CommandRun run = PointInTimeRestoreIT.restore(dir, bucket, engine);

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        assertThat(result.get("finalRevision").asLong()).isEqualTo(3783);
        assertThat(result.get("kvSha256").asText()).isEqualTo(latest.kvSha256());
        assertThat(result.get("base").get("name").asText()).isEqualTo("v2/" + OLDER);
        JsonNode aside = result.get("baseSetAside").get(0);
        assertThat(aside.get("object").asText()).isEqualTo("v2/" + NEWEST);
        assertThat(aside.get("code").asText()).isEqualTo("HASH_MISMATCH");
        assertThat(aside.get("reach").asLong()).isEqualTo(3783);
    }

    @Test
    void aGarbageObjectNamedLikeTheNewestFullSnapshotIsSetAsideToo() throws IOException {
        Path bucket = bucket();
        Files.writeString(bucket.resolve("v2").resolve(NEWEST), "not a snapshot at all");

        CommandRun run = PointInTimeRestoreIT.restore(dir, bucket, "offline", "--to-revision", "3000");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("finalRevision").asLong()).isEqualTo(3000);
        assertThat(run.result().get("base").get("name").asText()).isEqualTo("v2/" + OLDER);
        assertThat(run.result().get("baseSetAside").get(0).get("code").asText())
                .isIn("CORRUPT_OBJECT", "TRUNCATED_OBJECT");
        assertThat(run.result().get("pointInTime").get("complete").asBoolean()).isTrue();
    }

    @Test
    void anOlderChainThatReachesLessIsTakenOnlyWithToLastGood() throws IOException {
        Path bucket = bucket();
        String claimed = "Full-00000000-00009000-1796115400.gz";
        Files.writeString(bucket.resolve("v2").resolve(claimed), "garbage named like a newer full snapshot");

        CommandRun plain = PointInTimeRestoreIT.restore(dir, bucket, "offline");
        assertThat(plain.exitCode()).as(plain.stderr()).isIn(13, 15);
        assertThat(plain.result().get("error").asText())
                .contains("v2/" + claimed, "v2/" + NEWEST, "reaches only revision 3783 of 9000", "--to-last-good");

        CommandRun lastGood = PointInTimeRestoreIT.restore(dir, bucket, "offline", "--to-last-good");
        assertThat(lastGood.exitCode()).as(lastGood.stderr()).isZero();
        JsonNode result = lastGood.result();
        assertThat(result.get("finalRevision").asLong()).isEqualTo(3783);
        assertThat(result.get("base").get("name").asText()).isEqualTo("v2/" + NEWEST);
        JsonNode point = result.get("pointInTime");
        assertThat(point.get("complete").asBoolean()).isFalse();
        JsonNode left = point.get("leftOut").get(0);
        assertThat(left.get("object").asText()).isEqualTo("v2/" + claimed);
        assertThat(left.get("firstRevision").asLong()).isEqualTo(3784);
        assertThat(left.get("lastRevision").asLong()).isEqualTo(9000);
    }

    @Test
    void verifyBackupReportsTheOlderChainARestoreGoesOnWith() throws IOException {
        Path bucket = bucket();
        flipOneByte(bucket.resolve("v2").resolve(NEWEST));

        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                "verify-backup",
                "--store-container",
                bucket.toString());

        assertThat(run.exitCode()).as("the damaged object is still a finding").isEqualTo(12);
        JsonNode result = run.result();
        assertThat(result.get("problems").get(0).get("object").asText()).isEqualTo("v2/" + NEWEST);
        JsonNode range = result.get("restorable");
        assertThat(range.get("fromRevision").asLong()).isEqualTo(521);
        assertThat(range.get("toRevision").asLong()).isEqualTo(3783);
        JsonNode older = result.get("olderChain");
        assertThat(older.get("base").asText()).isEqualTo("v2/" + OLDER);
        assertThat(older.get("reachesNewest").asBoolean()).isTrue();
    }

    private Path bucket() {
        return Fixtures.copyBucket(Fixtures.V0_41_2, "gzip", dir.resolve("bucket-" + System.nanoTime()));
    }

    /** One byte of the database changed, recompressed: its SHA-256 trailer no longer matches. */
    static void flipOneByte(Path gz) throws IOException {
        byte[] content;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            content = in.readAllBytes();
        }
        int at = content.length / 2;
        content[at] = (byte) (content[at] ^ 0x01);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream zip = new GZIPOutputStream(out)) {
            zip.write(content);
        }
        Files.write(gz, out.toByteArray());
    }
}
