package io.etcdworkers.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The placed copy of a restored dir: the same bytes, etcd's permissions, the WAL from where it was. */
class DataDirCopyTest {
    private static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    private Path source;
    private byte[] db;
    private byte[] wal;
    private byte[] snap;

    @BeforeEach
    void restoredDir() throws IOException {
        source = dir.resolve("scratch/verify.etcd");
        Files.createDirectories(source.resolve("member/snap"));
        Files.createDirectories(source.resolve("member/wal"));
        Random random = new Random(42);
        // a database of 3.5 MiB whose second MiB is all zeros and whose length is not a whole
        // number of blocks
        db = new byte[3 * MIB + MIB / 2];
        random.nextBytes(db);
        Arrays.fill(db, MIB, 2 * MIB, (byte) 0);
        // a WAL segment as etcd preallocates it: some records, then zeros to its full size
        wal = new byte[8 * MIB];
        byte[] records = new byte[10_000];
        random.nextBytes(records);
        System.arraycopy(records, 0, wal, 0, records.length);
        snap = "raft snapshot".getBytes(StandardCharsets.UTF_8);
        Files.write(source.resolve("member/snap/db"), db);
        Files.write(source.resolve("member/snap/0000000000000001-0000000000000001.snap"), snap);
        Files.write(source.resolve("member/wal/0000000000000000-0000000000000000.wal"), wal);
    }

    @Test
    void copiesEveryFileByteForByteWithEtcdsPermissions() throws IOException {
        Path copy = dir.resolve("data.part");

        long bytes = DataDirCopy.copy(source, Optional.empty(), copy);

        assertThat(Files.readAllBytes(copy.resolve("member/snap/db"))).isEqualTo(db);
        assertThat(Files.readAllBytes(copy.resolve("member/snap/0000000000000001-0000000000000001.snap")))
                .isEqualTo(snap);
        assertThat(Files.readAllBytes(copy.resolve("member/wal/0000000000000000-0000000000000000.wal")))
                .isEqualTo(wal);
        for (Path d : List.of(copy, copy.resolve("member"), copy.resolve("member/snap"), copy.resolve("member/wal"))) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(d)))
                    .as("%s", d)
                    .isEqualTo("rwx------");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(copy.resolve("member/snap/db"))))
                .isEqualTo("rw-------");
        // every byte, the WAL's preallocated zeros too: they reserve its space on the member's disk
        assertThat(bytes).isEqualTo(db.length + wal.length + snap.length);
        assertThat(Files.size(copy.resolve("member/wal/0000000000000000-0000000000000000.wal")))
                .isEqualTo(wal.length);
        // the source is left as it was
        assertThat(Files.readAllBytes(source.resolve("member/snap/db"))).isEqualTo(db);
    }

    @Test
    void aWalInItsOwnDirIsCopiedIntoTheDataDir() throws IOException {
        Path walDir = dir.resolve("shm/verify.wal");
        Files.createDirectories(walDir.getParent());
        Files.move(source.resolve("member/wal"), walDir);
        Path copy = Files.createDirectories(dir.resolve("data.part")); // absent or empty

        DataDirCopy.copy(source, Optional.of(walDir), copy);

        assertThat(Files.readAllBytes(copy.resolve("member/wal/0000000000000000-0000000000000000.wal")))
                .isEqualTo(wal);
        assertThat(Files.readAllBytes(copy.resolve("member/snap/db"))).isEqualTo(db);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(copy.resolve("member/wal"))))
                .isEqualTo("rwx------");
    }

    @Test
    void refusesATargetWithContentOrASourceThatIsNoDataDir() throws IOException {
        Path taken = Files.createDirectories(dir.resolve("taken"));
        Files.writeString(taken.resolve("old"), "x");
        assertThatThrownBy(() -> DataDirCopy.copy(source, Optional.empty(), taken))
                .isInstanceOf(FileAlreadyExistsException.class);
        Path notRestored = Files.createDirectories(dir.resolve("empty/member"));
        assertThatThrownBy(() -> DataDirCopy.copy(notRestored.getParent(), Optional.empty(), dir.resolve("copy")))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("not a restored etcd data dir");
        assertThat(dir.resolve("copy")).doesNotExist();
    }
}
