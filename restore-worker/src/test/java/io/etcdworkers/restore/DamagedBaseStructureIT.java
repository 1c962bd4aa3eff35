package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A full snapshot whose bbolt structure was damaged before it was hashed (so its SHA-256 trailer
 * matches): verify-backup names the object and the page, a restore refuses it as a corrupt object
 * (13) naming the object before any etcd tool reads it, and where an older chain reaches the same
 * revision the restore goes on from it.
 */
@Timeout(600)
class DamagedBaseStructureIT {
    private static final String BASE = "Full-00000000-00000601-1795986606";
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"offline", "replay"})
    void aBaseWithADamagedPageTypeIsACorruptObjectNamedWithItsPage(String engine) throws IOException {
        Path bucket = Fixtures.copyBucket(Fixtures.V0_23_0, "plain", dir.resolve("plain-" + engine));
        long root = damagePageType(bucket.resolve("v2").resolve(BASE));

        CommandRun run = PointInTimeRestoreIT.restore(dir, bucket, engine);

        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(13);
        assertThat(run.result().get("errorCode").asText()).isEqualTo("CORRUPT_OBJECT");
        assertThat(run.result().get("error").asText())
                .contains("v2/" + BASE, "bbolt structure is damaged", "page " + root + " (root bucket)");
        assertThat(run.result().get("retryable").asBoolean()).isFalse();
    }

    @Test
    void aTruncatedBaseWhoseTrailerWasRecomputedIsACorruptObject() throws IOException {
        Path bucket = Fixtures.copyBucket(Fixtures.V0_23_0, "plain", dir.resolve("cut"));
        Path base = bucket.resolve("v2").resolve(BASE);
        byte[] content = Files.readAllBytes(base);
        Files.write(base, withTrailer(Arrays.copyOf(content, content.length - 32 - 2 * PAGE)));

        CommandRun run = PointInTimeRestoreIT.restore(dir, bucket, "replay");

        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(13);
        assertThat(run.result().get("error").asText()).contains("v2/" + BASE, "truncated");
    }

    @Test
    void verifyBackupReportsEveryFaultWithItsPage() throws IOException {
        Path bucket = Fixtures.copyBucket(Fixtures.V0_23_0, "plain", dir.resolve("verify"));
        long root = damagePageType(bucket.resolve("v2").resolve(BASE));

        CommandRun run = CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                "verify-backup",
                "--store-container",
                bucket.toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString());

        assertThat(run.exitCode()).isEqualTo(13);
        JsonNode problem = run.result().get("problems").get(0);
        assertThat(problem.get("object").asText()).isEqualTo("v2/" + BASE);
        assertThat(problem.get("code").asText()).isEqualTo("CORRUPT_OBJECT");
        assertThat(problem.get("faults").get(0).asText()).startsWith("page " + root + " (root bucket)");
        assertThat(run.result().has("restorable")).as("nothing is restorable").isFalse();
    }

    @Test
    void aNewestBaseWithADamagedStructureIsSetAsideForTheOlderChain() throws IOException {
        Path bucket = Fixtures.copyBucket(Fixtures.V0_23_0, "compacted", dir.resolve("compacted"));
        String newest = "Full-00000000-00003656-1795986628";
        damagePageType(bucket.resolve("v2").resolve(newest));

        CommandRun run = PointInTimeRestoreIT.restore(dir, bucket, "offline");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("finalRevision").asLong()).isEqualTo(3656);
        assertThat(run.result().get("kvSha256").asText())
                .isEqualTo(ExpectedState.Digest.of(ExpectedState.keys(Fixtures.V0_23_0))
                        .kvSha256());
        assertThat(run.result().get("base").get("name").asText()).isEqualTo("v2/" + BASE);
        JsonNode aside = run.result().get("baseSetAside").get(0);
        assertThat(aside.get("object").asText()).isEqualTo("v2/" + newest);
        assertThat(aside.get("code").asText()).isEqualTo("CORRUPT_OBJECT");
    }

    /** Sets the root bucket page's type to 0x20 and recomputes the trailer; returns that page's id. */
    private static long damagePageType(Path snapshot) throws IOException {
        byte[] content = Files.readAllBytes(snapshot);
        byte[] db = Arrays.copyOf(content, content.length - 32);
        long root = ByteBuffer.wrap(db).order(ByteOrder.LITTLE_ENDIAN).getLong(32);
        db[(int) root * PAGE + 8] = 0x20;
        Files.write(snapshot, withTrailer(db));
        return root;
    }

    private static byte[] withTrailer(byte[] db) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(db);
            byte[] out = Arrays.copyOf(db, db.length + hash.length);
            System.arraycopy(hash, 0, out, db.length, hash.length);
            return out;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
