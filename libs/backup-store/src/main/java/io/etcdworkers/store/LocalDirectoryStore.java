package io.etcdworkers.store;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bucket in a local directory, as etcd-backup-restore's {@code Local} provider lays it out:
 * the container is a directory, keys are paths below it with {@code /} separators.
 *
 * <p>Writes go to a hidden temp file in the target directory, are fsynced, renamed into place
 * atomically and the directory is fsynced, so a snapshot name never shows a partial file. The
 * writer holds an OS lock on its temp file until it is renamed or deleted; a writer killed by
 * SIGKILL leaves it behind, unlocked, and the next write into that directory removes it.
 */
public final class LocalDirectoryStore implements ObjectStore {
    /** Names of in-flight writes start with this; listings leave them out. */
    static final String IN_FLIGHT_PREFIX = ".inflight-";

    private static final Set<Path> IN_FLIGHT_HERE = ConcurrentHashMap.newKeySet();
    private static final Logger LOG = LoggerFactory.getLogger(LocalDirectoryStore.class);

    private final Path root;

    /**
     * @param root the container directory; it must exist
     * @throws WorkerException {@link ErrorCode#STORE_NOT_FOUND} when it does not
     */
    public LocalDirectoryStore(Path root) {
        this.root = root.toAbsolutePath().normalize();
        if (!Files.isDirectory(this.root)) {
            throw new WorkerException(
                    ErrorCode.STORE_NOT_FOUND,
                    "local store container " + this.root + " does not exist or is not a directory");
        }
    }

    @Override
    public String describe() {
        return "local directory " + root;
    }

    @Override
    public List<ObjectInfo> list(String keyPrefix) {
        int slash = keyPrefix.lastIndexOf('/');
        Path start = slash < 0 ? root : resolve(keyPrefix.substring(0, slash));
        if (!Files.isDirectory(start)) {
            return List.of();
        }
        List<ObjectInfo> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(start)) {
            files.forEach(path -> {
                if (path.getFileName().toString().startsWith(IN_FLIGHT_PREFIX)) {
                    return;
                }
                try {
                    BasicFileAttributes attrs = Files.readAttributes(path, BasicFileAttributes.class);
                    String key = keyOf(path);
                    if (attrs.isRegularFile() && key.startsWith(keyPrefix)) {
                        found.add(new ObjectInfo(
                                key, attrs.size(), attrs.lastModifiedTime().toInstant()));
                    }
                } catch (NoSuchFileException e) {
                    // removed while listing (garbage collection): not part of this listing
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot list " + start + ": " + e.getMessage(), e);
        }
        return found;
    }

    @Override
    public InputStream open(String key) {
        try {
            return Files.newInputStream(resolve(key));
        } catch (NoSuchFileException e) {
            throw vanished(key, e);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot read " + resolve(key) + ": " + e.getMessage(), e);
        }
    }

    @Override
    public InputStream openRange(String key, long offset, long length) {
        try {
            SeekableByteChannel channel = Files.newByteChannel(resolve(key), StandardOpenOption.READ);
            channel.position(offset);
            return new BoundedInputStream(Channels.newInputStream(channel), length);
        } catch (NoSuchFileException e) {
            throw vanished(key, e);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot read " + resolve(key) + ": " + e.getMessage(), e);
        }
    }

    @Override
    public ObjectWriter create(String key) {
        Path target = resolve(key);
        try {
            Files.createDirectories(target.getParent());
            removeAbandonedWrites(target.getParent());
            Path temp = target.resolveSibling(IN_FLIGHT_PREFIX + UUID.randomUUID() + "-" + target.getFileName());
            // known as this JVM's before it exists: a writer beside it that lists the directory
            // must never take it for an abandoned one, lock it and delete it before it is locked
            IN_FLIGHT_HERE.add(temp);
            FileChannel channel;
            try {
                channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (IOException | RuntimeException e) {
                IN_FLIGHT_HERE.remove(temp);
                throw e;
            }
            try {
                channel.lock(); // a new file nobody else knows yet: granted at once
            } catch (IOException | RuntimeException e) {
                IN_FLIGHT_HERE.remove(temp);
                channel.close();
                Files.deleteIfExists(temp);
                throw e;
            }
            return new LocalWriter(key, target, temp, channel);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot create " + target + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        // nothing held open
    }

    /**
     * Deletes the in-flight temp files in {@code dir} whose lock can be taken: their writers are
     * dead. Writers of this JVM are skipped without opening their files (closing a second
     * descriptor of a locked file would drop the lock).
     */
    static void removeAbandonedWrites(Path dir) throws IOException {
        List<Path> temps;
        try (Stream<Path> entries = Files.list(dir)) {
            temps = entries.filter(p -> p.getFileName().toString().startsWith(IN_FLIGHT_PREFIX))
                    .filter(p -> !IN_FLIGHT_HERE.contains(p))
                    .toList();
        }
        for (Path temp : temps) {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                FileLock lock = channel.tryLock();
                if (lock != null) {
                    // by name: a writer that committed meanwhile renamed it, and the name is gone
                    LOG.warn(
                            "removing the temp file of an upload that was killed path={} bytes={}",
                            temp,
                            Files.size(temp));
                    Files.deleteIfExists(temp);
                }
            } catch (NoSuchFileException finishedMeanwhile) {
                // committed or aborted by its writer
            } catch (OverlappingFileLockException notSeenInTheSetYet) {
                // another writer in this JVM: live
            }
        }
    }

    private Path resolve(String key) {
        Path path = root.resolve(key).normalize();
        if (!path.startsWith(root)) {
            throw new WorkerException(ErrorCode.USAGE, "key " + key + " escapes the store directory " + root);
        }
        return path;
    }

    private String keyOf(Path path) {
        return root.relativize(path).toString().replace(path.getFileSystem().getSeparator(), "/");
    }

    private WorkerException vanished(String key, IOException e) {
        return new WorkerException(
                ErrorCode.OBJECT_VANISHED, key + " disappeared from " + describe() + " after it was listed", e);
    }

    private final class LocalWriter implements ObjectWriter {
        private final String key;
        private final Path target;
        private final Path temp;
        private final FileChannel channel;
        private final OutputStream out;
        private boolean done;

        LocalWriter(String key, Path target, Path temp, FileChannel channel) {
            this.key = key;
            this.target = target;
            this.temp = temp;
            this.channel = channel;
            this.out = new FilterOutputStream(Channels.newOutputStream(channel)) {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                }

                @Override
                public void close() throws IOException {
                    flush();
                }
            };
        }

        @Override
        public OutputStream out() {
            return out;
        }

        @Override
        public ObjectInfo commit() {
            if (done) {
                throw new IllegalStateException("already finished: " + key);
            }
            try {
                channel.force(true);
                // renamed while still locked: nobody may take the temp file for an abandoned one
                try {
                    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    throw new IOException("the file system cannot rename atomically", e);
                }
                channel.close();
                IN_FLIGHT_HERE.remove(temp);
                fsyncDirectory(target.getParent());
                done = true;
                BasicFileAttributes attrs = Files.readAttributes(target, BasicFileAttributes.class);
                return new ObjectInfo(
                        key, attrs.size(), attrs.lastModifiedTime().toInstant());
            } catch (IOException e) {
                close();
                throw new WorkerException(ErrorCode.LOCAL_IO, "cannot write " + target + ": " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
            if (done) {
                return;
            }
            done = true;
            try (FileChannel held = channel) {
                Files.deleteIfExists(temp); // still locked: deleted before anyone can take it
            } catch (IOException e) {
                throw new WorkerException(
                        ErrorCode.LOCAL_IO, "cannot remove temp file " + temp + ": " + e.getMessage(), e);
            } finally {
                IN_FLIGHT_HERE.remove(temp);
            }
        }
    }

    /** Makes a rename durable: fsync of the directory that holds the new name. */
    static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
