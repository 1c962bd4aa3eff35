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
import java.nio.charset.StandardCharsets;
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
 * A bucket with one damaged delta in the middle fails a plain restore as before; {@code
 * verify-backup} names the restorable range; {@code restore --to-last-good} restores exactly the
 * keyspace at the revision before the damaged delta and lists what it left out. A missing delta
 * (a gap) is handled the same way.
 */
@Timeout(300)
class RestoreToLastGoodIT {
    private static final String DAMAGED = "Incr-00001751-00002341-1795986610.gz";

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"offline", "replay"})
    void restoresUpToTheDeltaBeforeTheDamagedOneAndListsWhatItLeftOut(String engine) throws IOException {
        Path bucket = damagedBucket();
        ExpectedState.Digest at1750 = ExpectedState.Digest.of(
                PointInTimeRestoreIT.model(Fixtures.V0_23_0, "gzip").at(1750));

        CommandRun plain = PointInTimeRestoreIT.restore(dir, bucket, engine);
        assertThat(plain.exitCode()).as("without the flag it fails as before").isEqualTo(12);

        CommandRun run = PointInTimeRestoreIT.restore(dir, bucket, engine, "--to-last-good");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        assertThat(result.get("finalRevision").asLong()).isEqualTo(1750);
        assertThat(result.get("kvSha256").asText()).isEqualTo(at1750.kvSha256());
        assertThat(result.get("metaSha256").asText()).isEqualTo(at1750.metaSha256());
        JsonNode point = result.get("pointInTime");
        assertThat(point.get("end").asText()).isEqualTo("DAMAGE");
        assertThat(point.get("complete").asBoolean()).isFalse();
        JsonNode left = point.get("leftOut");
        assertThat(left).hasSize(8);
        assertThat(left.get(0).get("object").asText()).isEqualTo("v2/" + DAMAGED);
        assertThat(left.get(0).get("code").asText()).isEqualTo("HASH_MISMATCH");
        assertThat(left.get(0).get("firstRevision").asLong()).isEqualTo(1751);
        assertThat(left.get(0).get("lastRevision").asLong()).isEqualTo(2341);
        assertThat(left.get(1).get("object").asText()).isEqualTo("v2/Incr-00002342-00002920-1795986610.gz");
        assertThat(left.get(1).has("code")).isFalse();
        assertThat(left.get(1).get("reason").asText()).contains(DAMAGED);
        assertThat(left.get(7).get("lastRevision").asLong()).isEqualTo(3656);
    }

    @Test
    void verifyBackupNamesTheRestorableRangeAndWhatEndsIt() throws IOException {
        Path bucket = damagedBucket();

        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                "verify-backup",
                "--store-container",
                bucket.toString());

        assertThat(run.exitCode()).isEqualTo(12);
        JsonNode range = run.result().get("restorable");
        assertThat(range.get("fromRevision").asLong()).isEqualTo(601);
        assertThat(range.get("fromTime").asText()).isEqualTo("2026-11-29T21:10:06Z");
        assertThat(range.get("toRevision").asLong()).isEqualTo(1750);
        assertThat(range.get("toTime").asText())
                .isNotEqualTo(range.get("fromTime").asText());
        assertThat(range.get("stopsBefore").asText()).contains(DAMAGED, "HASH_MISMATCH");
        JsonNode problem = run.result().get("problems").get(0);
        assertThat(problem.get("firstRevision").asLong()).isEqualTo(1751);
        assertThat(problem.get("lastRevision").asLong()).isEqualTo(2341);
    }

    @Test
    void aMissingDeltaEndsTheRestoreBeforeTheGapAndATargetBeforeTheDamageIsComplete() throws IOException {
        Path bucket = Fixtures.copyBucket(Fixtures.V0_23_0, "gzip", dir.resolve("gapped"));
        Files.delete(bucket.resolve("v2/Incr-00002921-00003499-1795986611.gz"));

        CommandRun run = PointInTimeRestoreIT.restore(dir, bucket, "offline", "--to-last-good");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("finalRevision").asLong()).isEqualTo(2920);
        JsonNode gap = run.result().get("pointInTime").get("leftOut").get(0);
        assertThat(gap.has("object")).isFalse();
        assertThat(gap.get("firstRevision").asLong()).isEqualTo(2921);
        assertThat(gap.get("lastRevision").asLong()).isEqualTo(3499);
        assertThat(gap.get("code").asText()).isEqualTo("BACKUP_INCONSISTENT");

        CommandRun before = PointInTimeRestoreIT.restore(
                dir, damagedBucket(), "offline", "--to-revision", "1700", "--to-last-good");
        assertThat(before.exitCode()).as(before.stderr()).isZero();
        assertThat(before.result().get("finalRevision").asLong()).isEqualTo(1700);
        assertThat(before.result().get("pointInTime").get("complete").asBoolean())
                .isTrue();
    }

    /** The fixture with one byte of one value changed inside the third delta: its SHA-256 trailer no longer matches. */
    private Path damagedBucket() throws IOException {
        Path bucket = Fixtures.copyBucket(Fixtures.V0_23_0, "gzip", dir.resolve("damaged-" + System.nanoTime()));
        Path delta = bucket.resolve("v2").resolve(DAMAGED);
        byte[] content;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(delta))) {
            content = in.readAllBytes();
        }
        String json = new String(content, 0, content.length - 32, StandardCharsets.ISO_8859_1);
        int value = json.indexOf("\"value\":\"", json.length() / 2) + 9;
        content[value] = (byte) (content[value] == 'A' ? 'B' : 'A');
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(gz)) {
            out.write(content);
        }
        Files.write(delta, gz.toByteArray());
        return bucket;
    }
}
