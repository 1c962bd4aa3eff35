package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.testsupport.Fixtures;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class FullSnapshotReaderTest {

    private static byte[] fixtureFull() throws Exception {
        return Files.readAllBytes(Fixtures.bucket("plain").resolve("v2/Full-00000000-00000601-1795986606"));
    }

    @Test
    void fixtureFullSnapshotVerifiesAndIsCopiedWhole() throws Exception {
        byte[] content = fixtureFull();
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        FullSnapshotSummary summary =
                FullSnapshotReader.copy("Full-test", new ByteArrayInputStream(content), out, false);

        assertThat(summary.hasHash()).isTrue();
        assertThat(summary.totalBytes()).isEqualTo(483_360);
        assertThat(summary.databaseBytes()).isEqualTo(483_328);
        assertThat(summary.sha256()).isEqualTo(HexFormat.of().formatHex(content, content.length - 32, content.length));
        assertThat(out.toByteArray()).isEqualTo(content);
    }

    @Test
    void flippedDatabaseByteIsAHashMismatch() throws Exception {
        byte[] content = fixtureFull();
        content[4096 * 3 + 17] ^= 1;

        assertThatThrownBy(() -> FullSnapshotReader.copy("Full-test", new ByteArrayInputStream(content), null, false))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.HASH_MISMATCH);
                    assertThat(e.getMessage()).contains("Full-test", "corrupt");
                });
        FullSnapshotSummary skipped =
                FullSnapshotReader.copy("Full-test", new ByteArrayInputStream(content), null, true);
        assertThat(skipped.hasHash()).isTrue();
    }

    @Test
    void snapshotWithoutTrailerNeedsSkipHashCheck() throws Exception {
        byte[] database = Arrays.copyOf(fixtureFull(), 483_328);

        assertThatThrownBy(() -> FullSnapshotReader.copy("Full-test", new ByteArrayInputStream(database), null, false))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.HASH_MISMATCH);
                    assertThat(e.getMessage()).contains("--skip-hash-check", "483328");
                });
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        FullSnapshotSummary summary =
                FullSnapshotReader.copy("Full-test", new ByteArrayInputStream(database), out, true);
        assertThat(summary.hasHash()).isFalse();
        assertThat(summary.databaseBytes()).isEqualTo(483_328);
        assertThat(summary.sha256()).isEqualTo(HexFormat.of().formatHex(DeltaBytes.sha256(database)));
        assertThat(out.toByteArray()).isEqualTo(database);
    }
}
