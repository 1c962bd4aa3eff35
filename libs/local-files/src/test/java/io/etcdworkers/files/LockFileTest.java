package io.etcdworkers.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lock file's life, and the race a deleted lock file opens (cross-process holders: ScratchDirIT). */
class LockFileTest {
    @TempDir
    Path dir;

    @Test
    void theFileExistsExactlyWhileTheLockIsHeld() throws IOException {
        Path path = dir.resolve("new.etcd.lock");
        try (LockFile lock = LockFile.tryLock(path).orElseThrow()) {
            assertThat(path).exists();
            assertThat(LockFile.tryLock(path)).as("a second holder in this JVM").isEmpty();
        }
        assertThat(path).doesNotExist();
        try (LockFile again = LockFile.tryLock(path).orElseThrow()) {
            assertThat(again.path()).isEqualTo(path);
        }
    }

    /**
     * We opened the file, then its holder deleted it and released, and someone created the name
     * again: the lock we then get is on a file no one can reach by the name. It must not count.
     */
    @Test
    void aLockOnAFileDeletedBeforeItWasLockedIsNotTaken() throws IOException {
        Path path = dir.resolve("new.etcd.lock");
        Files.createFile(path);
        Optional<LockFile> lock = LockFile.tryLock(path, () -> {
            try {
                Files.delete(path);
                Files.createFile(path); // a new file under the name; the channel still holds the old one
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });

        assertThat(lock).isPresent();
        try (FileChannel probe = FileChannel.open(path, StandardOpenOption.WRITE)) {
            // this JVM's lock table is keyed by device and inode: the file the name denotes is the locked one
            assertThatThrownBy(probe::tryLock).isInstanceOf(OverlappingFileLockException.class);
        }
        lock.get().close();
        assertThat(path).doesNotExist();
    }

    @Test
    void aLockFileItCreatesIsItsOwnersAlone() throws IOException {
        Path path = dir.resolve("new.etcd.lock");
        try (LockFile lock = LockFile.tryLock(path).orElseThrow()) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path)))
                    .isEqualTo("rw-------");
        }
    }

    @Test
    void lockingOnlyAnExistingFileCreatesNothing() throws IOException {
        Path path = dir.resolve("restore-1.lock");
        assertThat(LockFile.tryLockExisting(path)).isEmpty();
        assertThat(path).doesNotExist();

        Files.createSymbolicLink(path, Files.createFile(dir.resolve("elsewhere")));
        assertThatThrownBy(() -> LockFile.tryLockExisting(path))
                .as("a link is not followed")
                .isInstanceOf(IOException.class);
    }

    @Test
    void itsTextIsReadThroughTheLockAndAForeignFileIsKept() throws IOException {
        Path path = dir.resolve("restore-1.lock");
        try (LockFile lock = LockFile.tryLock(path).orElseThrow()) {
            lock.write("a run's marker\n");
            assertThat(lock.read(256)).isEqualTo("a run's marker\n");
            assertThat(lock.read(5)).isEqualTo("a run");
        }
        Files.writeString(path, "someone else's file");
        LockFile.tryLockExisting(path).orElseThrow().closeKeepingFile();
        assertThat(path).hasContent("someone else's file");
        assertThat(LockFile.tryLockExisting(path))
                .as("released")
                .isPresent()
                .get()
                .satisfies(LockFile::closeKeepingFile);
    }
}
