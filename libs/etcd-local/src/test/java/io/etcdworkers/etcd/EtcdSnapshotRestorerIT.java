package io.etcdworkers.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.testsupport.EtcdTestEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** SnapshotRestorer with the machine's real etcd tools and the etcdbrctl fixture snapshot. */
@Timeout(120)
class EtcdSnapshotRestorerIT {
    private static final int FIXTURE_BYTES = 483_360;

    @TempDir
    Path tmp;

    private SnapshotRestorer restorer;
    private final EtcdMember member = EtcdMember.onFreeLoopbackPort();

    @BeforeEach
    void setUp() {
        restorer = new SnapshotRestorer(
                EtcdBinaries.locate(Optional.of(EtcdTestEnvironment.onPath().binDir()), ""),
                tmp.resolve("scratch"),
                SnapshotRestorer.DEFAULT_TIMEOUT);
    }

    @Test
    void restoresTheFixtureIntoANewDataDir() throws IOException {
        Path snapshot = EtcdTestEnvironment.fullSnapshot();
        assertThat(Files.size(snapshot)).isEqualTo(FIXTURE_BYTES);
        Path data = tmp.resolve("data");

        restorer.restore(new SnapshotRestorer.Request(snapshot, member, data, Optional.empty(), false));

        // The db is the snapshot without its 32-byte trailer.
        assertThat(data.resolve("member/snap/db")).hasSize(FIXTURE_BYTES - 32);
        assertThat(data.resolve("member/wal")).isDirectory();
        assertThat(tmp.resolve("scratch")).isEmptyDirectory();
    }

    @Test
    void restoresIntoAnExistingEmptyDirAndASeparateWalDir() throws IOException {
        Path data = Files.createDirectories(tmp.resolve("data"));
        Path wal = tmp.resolve("wal");

        restorer.restore(new SnapshotRestorer.Request(
                EtcdTestEnvironment.fullSnapshot(), member, data, Optional.of(wal), false));

        assertThat(data.resolve("member/snap/db")).isRegularFile();
        assertThat(data.resolve("member/wal")).doesNotExist();
        try (var walFiles = Files.list(wal)) {
            assertThat(walFiles).anyMatch(f -> f.getFileName().toString().endsWith(".wal"));
        }
    }

    @Test
    void aFlippedDatabaseByteIsAHashMismatchAndLeavesNothing() throws IOException {
        Path corrupt = copyWithFlippedByte(20_000);
        Path data = tmp.resolve("data");

        assertThatThrownBy(() ->
                        restorer.restore(new SnapshotRestorer.Request(corrupt, member, data, Optional.empty(), false)))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.HASH_MISMATCH))
                .hasMessageContaining(corrupt.toString())
                .hasMessageContaining("expected sha256");
        // etcdctl had already created member/ when it found the mismatch.
        assertThat(data).doesNotExist();
    }

    @Test
    void aFlippedTrailerByteRestoresWhenTheCheckIsSkipped() throws IOException {
        Path corrupt = copyWithFlippedByte(FIXTURE_BYTES - 1);
        Path data = tmp.resolve("data");

        assertThatThrownBy(() ->
                        restorer.restore(new SnapshotRestorer.Request(corrupt, member, data, Optional.empty(), false)))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.HASH_MISMATCH));

        restorer.restore(new SnapshotRestorer.Request(corrupt, member, data, Optional.empty(), true));

        assertThat(data.resolve("member/snap/db")).hasSize(FIXTURE_BYTES - 32);
    }

    @Test
    void aSnapshotWithoutTrailerNeedsSkipHashCheck() throws IOException {
        byte[] all = Files.readAllBytes(EtcdTestEnvironment.fullSnapshot());
        Path bare = Files.write(tmp.resolve("bare.db"), Arrays.copyOf(all, all.length - 32));
        Path data = tmp.resolve("data");

        assertThatThrownBy(() ->
                        restorer.restore(new SnapshotRestorer.Request(bare, member, data, Optional.empty(), false)))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.HASH_MISMATCH))
                .hasMessageContaining("has no SHA-256 trailer");
        assertThat(data).doesNotExist();

        restorer.restore(new SnapshotRestorer.Request(bare, member, data, Optional.empty(), true));

        assertThat(data.resolve("member/snap/db")).hasSize(all.length - 32);
    }

    @Test
    void aNonEmptyTargetIsRefusedAndLeftAlone() throws IOException {
        Path data = Files.createDirectories(tmp.resolve("data"));
        Path precious = Files.writeString(data.resolve("precious"), "keep");

        assertThatThrownBy(() -> restorer.restore(new SnapshotRestorer.Request(
                        EtcdTestEnvironment.fullSnapshot(), member, data, Optional.empty(), false)))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TARGET_NOT_EMPTY))
                .hasMessageContaining(data.toString());
        assertThat(precious).hasContent("keep");
    }

    @Test
    void anEmptyDirWithoutEtcdGivesTheInstallHint() {
        Path noBinaries = tmp.resolve("no-etcd-here");

        assertThatThrownBy(() -> EtcdBinaries.locate(Optional.of(noBinaries), "/usr/bin:/bin"))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.USAGE))
                .hasMessageContaining("apt-get install etcd-server etcd-client")
                .hasMessageContaining(noBinaries.toString());
    }

    private Path copyWithFlippedByte(int offset) throws IOException {
        byte[] bytes = Files.readAllBytes(EtcdTestEnvironment.fullSnapshot());
        bytes[offset] ^= (byte) 0xff;
        return Files.write(tmp.resolve("corrupt-" + offset), bytes);
    }
}
