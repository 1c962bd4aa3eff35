package io.etcdworkers.restore.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An OS file lock on a file that exists only while it is held: {@link #tryLock} creates the file
 * and locks it, {@link #close} deletes it while still holding the lock, then releases it.
 *
 * <p>Mutual exclusion survives the deletion: a process that opened the file before its holder
 * deleted it gets the lock on a file no longer reachable by its name. So after locking, the
 * name must still denote the locked file: its file key (device and inode) is read before the
 * file is opened and again once it is locked, and the two must be equal, else it starts over.
 * The inode of a file this process holds open cannot be reused, and a lock file is only ever
 * deleted by its holder and never renamed, so equal keys mean the name still names it. (Keys
 * are read from the path, never by opening it again: closing any other descriptor of the file
 * would drop this process's POSIX lock.)
 *
 * <p>The lock is held by the process: the kernel releases it when the process dies, by any
 * signal, which is what lets a later run tell a live owner from a dead one.
 */
public final class LockFile implements AutoCloseable {
    private static final int ATTEMPTS = 100;
    private static final Set<Path> HELD_HERE = ConcurrentHashMap.newKeySet();

    private final Path path;
    private final FileChannel channel;
    private final FileLock lock;

    private LockFile(Path path, FileChannel channel, FileLock lock) {
        this.path = path;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Creates {@code path} when missing and locks it without waiting.
     *
     * @return the held lock, or empty when another process (or another holder in this JVM) has it
     */
    public static Optional<LockFile> tryLock(Path path) throws IOException {
        return tryLock(path, () -> { });
    }

    /** {@link #tryLock(Path)}, running {@code afterFirstOpen} between opening and locking (for the race's test). */
    static Optional<LockFile> tryLock(Path path, Runnable afterFirstOpen) throws IOException {
        Path held = Objects.requireNonNull(path, "path").toAbsolutePath().normalize();
        // Asked in this JVM before opening anything: closing a second descriptor of a file this
        // process has locked would silently release that lock.
        if (!HELD_HERE.add(held)) {
            return Optional.empty();
        }
        boolean locked = false;
        try {
            Optional<LockFile> lock = lock(path, afterFirstOpen);
            locked = lock.isPresent();
            return lock;
        } finally {
            if (!locked) {
                HELD_HERE.remove(held);
            }
        }
    }

    private static Optional<LockFile> lock(Path path, Runnable afterFirstOpen) throws IOException {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Object before = fileKey(path);
            if (before == null) {
                create(path);
                continue;
            }
            FileChannel channel;
            try {
                channel = FileChannel.open(path, StandardOpenOption.WRITE);
            } catch (NoSuchFileException deletedMeanwhile) {
                continue;
            }
            if (attempt == 0) {
                afterFirstOpen.run();
            }
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException lockedInThisJvmOutsideThisClass) {
                lock = null;
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
            if (lock == null) {
                channel.close();
                return Optional.empty();
            }
            if (before.equals(fileKey(path))) {
                return Optional.of(new LockFile(path, channel, lock));
            }
            // The holder we waited for deleted the file (or a new one took its name): not ours.
            channel.close();
        }
        throw new IOException("cannot lock " + path + ": it was deleted and created again " + ATTEMPTS
                + " times while locking it");
    }

    public Path path() {
        return path;
    }

    /** Deletes the file, then releases the lock: nobody ever deletes a lock file someone holds. */
    @Override
    public void close() throws IOException {
        try {
            Files.deleteIfExists(path);
        } finally {
            try {
                lock.release();
            } finally {
                channel.close();
                HELD_HERE.remove(path.toAbsolutePath().normalize());
            }
        }
    }

    private static Object fileKey(Path path) throws IOException {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private static void create(Path path) throws IOException {
        try {
            Files.createFile(path);
        } catch (FileAlreadyExistsException createdMeanwhile) {
            // someone else's, or a dead run's: locking it decides
        }
    }
}
