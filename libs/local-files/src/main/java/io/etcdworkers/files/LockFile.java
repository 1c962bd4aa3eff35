package io.etcdworkers.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
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
 *
 * <p>A file it creates is {@code 0600}. Its holder may keep a short text in it ({@link #write},
 * {@link #read}, through the locked descriptor): what a scratch dir's lock says about the run.
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
        return tryLock(path, true, () -> {});
    }

    /**
     * Locks {@code path} without waiting, only if it exists: nothing is created.
     *
     * @return the held lock, or empty when the file is missing or another holder has it
     */
    public static Optional<LockFile> tryLockExisting(Path path) throws IOException {
        return tryLock(path, false, () -> {});
    }

    /** {@link #tryLock(Path)}, running {@code afterFirstOpen} between opening and locking (for the race's test). */
    static Optional<LockFile> tryLock(Path path, Runnable afterFirstOpen) throws IOException {
        return tryLock(path, true, afterFirstOpen);
    }

    private static Optional<LockFile> tryLock(Path path, boolean create, Runnable afterFirstOpen) throws IOException {
        Path held = Objects.requireNonNull(path, "path").toAbsolutePath().normalize();
        // Asked in this JVM before opening anything: closing a second descriptor of a file this
        // process has locked would silently release that lock.
        if (!HELD_HERE.add(held)) {
            return Optional.empty();
        }
        boolean locked = false;
        try {
            Optional<LockFile> lock = lock(path, create, afterFirstOpen);
            locked = lock.isPresent();
            return lock;
        } finally {
            if (!locked) {
                HELD_HERE.remove(held);
            }
        }
    }

    private static Optional<LockFile> lock(Path path, boolean create, Runnable afterFirstOpen) throws IOException {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Object before = fileKey(path);
            if (before == null) {
                if (!create) {
                    return Optional.empty();
                }
                create(path);
                continue;
            }
            FileChannel channel;
            try {
                // an existing file is someone else's to make: a link is not followed to wherever it points
                channel = create
                        ? FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)
                        : FileChannel.open(
                                path, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
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
        throw new IOException(
                "cannot lock " + path + ": it was deleted and created again " + ATTEMPTS + " times while locking it");
    }

    public Path path() {
        return path;
    }

    /** Replaces the file's content with {@code text} (UTF-8), through the locked descriptor. */
    public void write(String text) throws IOException {
        channel.truncate(0);
        ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        long at = 0;
        while (bytes.hasRemaining()) {
            at += channel.write(bytes, at);
        }
    }

    /**
     * The file's content (UTF-8), read through the locked descriptor (a second descriptor,
     * once closed, would drop the lock); at most {@code maxBytes} of it.
     */
    public String read(int maxBytes) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate((int) Math.min(maxBytes, channel.size()));
        long at = 0;
        while (bytes.hasRemaining()) {
            int n = channel.read(bytes, at);
            if (n < 0) {
                break;
            }
            at += n;
        }
        return new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8);
    }

    /** Releases the lock and leaves the file where it is: for a file found not to be a lock of ours. */
    public void closeKeepingFile() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
            HELD_HERE.remove(path.toAbsolutePath().normalize());
        }
    }

    /** Deletes the file, then releases the lock: nobody ever deletes a lock file someone holds. */
    @Override
    public void close() throws IOException {
        try {
            Files.deleteIfExists(path);
        } finally {
            closeKeepingFile();
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
            Files.createFile(path, OwnerOnly.FILE);
        } catch (FileAlreadyExistsException createdMeanwhile) {
            // someone else's, or a dead run's: locking it decides
        }
    }
}
