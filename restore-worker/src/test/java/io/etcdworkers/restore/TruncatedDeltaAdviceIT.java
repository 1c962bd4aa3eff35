package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.Fixtures;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A delta cut short in the store fails a restore with exit 15 every time; the failure says how far
 * {@code --to-last-good} reaches, and a restore with it reaches exactly there.
 */
@Timeout(300)
class TruncatedDeltaAdviceIT {
    private static final String CUT = "Incr-00001751-00002341-1795986610.gz";

    @TempDir
    Path dir;

    @Test
    void theFailureNamesTheLastGoodRevisionThatToLastGoodThenReaches() throws IOException {
        Path bucket = Fixtures.copyBucket(Fixtures.V0_23_0, "gzip", dir.resolve("bucket"));
        try (RandomAccessFile file =
                new RandomAccessFile(bucket.resolve("v2/" + CUT).toFile(), "rw")) {
            file.setLength(file.length() / 2);
        }

        CommandRun plain = PointInTimeRestoreIT.restore(dir, bucket, "offline");

        assertThat(plain.exitCode()).as(plain.stderr()).isEqualTo(ErrorCode.TRUNCATED_OBJECT.exitCode());
        assertThat(plain.result().get("errorCode").asText()).isEqualTo("TRUNCATED_OBJECT");
        assertThat(plain.result().get("error").asText())
                .contains(
                        CUT,
                        "cut short in the store",
                        "restore --to-last-good reaches revision 1750, the last good one before v2/" + CUT);

        CommandRun lastGood = PointInTimeRestoreIT.restore(dir, bucket, "offline", "--to-last-good");

        assertThat(lastGood.exitCode()).as(lastGood.stderr()).isZero();
        JsonNode result = lastGood.result();
        assertThat(result.get("finalRevision").asLong()).isEqualTo(1750);
        assertThat(result.get("pointInTime").get("leftOut").get(0).get("code").asText())
                .isEqualTo("TRUNCATED_OBJECT");
    }
}
