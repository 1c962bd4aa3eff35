package io.etcdworkers.restore.restore;

import io.etcdworkers.restore.error.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.files.FileTree;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data dir a restore builds and places: built in {@code <data-dir>.part}, synced, then
 * renamed into place in one step, so the target is either untouched or complete.
 *
 * <p>{@code <data-dir>.lock} (held with an OS file lock for the whole run) keeps two workers off
 * the same target. What a killed run left ({@code .part}, {@code .replaced}) is removed at the
 * start of the next. An existing non-empty data dir is refused unless {@code force}.
 */
public final class TargetDir implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TargetDir.class);

    private final Path target;
    private final Path part;
    private final Path replaced;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private boolean placed;

    private TargetDir(Path target, FileChannel lockChannel, FileLock lock) {
        this.target = target;
        this.part = target.resolveSibling(target.getFileName() + ".part");
        this.replaced = target.resolveSibling(target.getFileName() + ".replaced");
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /** Locks the target, checks it may be written and clears leftovers of a killed run. */
    public static TargetDir prepare(Path target, boolean force) {
        Path parent = target.getParent();
        try {
            Files.createDirectories(parent);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot create " + parent + ": " + e.getMessage(), e);
        }
        Path lockFile = target.resolveSibling(target.getFileName() + ".lock");
        FileChannel channel = null;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw locked(target, lockFile, null);
            }
            TargetDir dir = new TargetDir(target, channel, lock);
            dir.checkAndClean(force);
            return dir;
        } catch (OverlappingFileLockException e) {
            closeQuietly(channel);
            throw locked(target, lockFile, e);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot lock " + lockFile + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    private static WorkerException locked(Path target, Path lockFile, Exception cause) {
        return new WorkerException(ErrorCode.TARGET_LOCKED, "another worker is restoring into " + target
                + " (it holds " + lockFile + "); not touching it", cause);
    }

    private void checkAndClean(boolean force) throws IOException {
        if (Files.exists(target) && !FileTree.isEmptyDirectory(target)) {
            if (!force) {
                throw new WorkerException(ErrorCode.TARGET_NOT_EMPTY, "data dir " + target
                        + " exists and is not empty: refusing to replace it without --force");
            }
            LOG.warn("data dir exists and will be replaced after a successful restore (--force) dataDir={}", target);
        }
        for (Path leftover : new Path[] {part, replaced}) {
            if (Files.exists(leftover)) {
                LOG.warn("removing what an interrupted run left path={}", leftover);
                FileTree.delete(leftover);
            }
        }
    }

    /** Where the restore builds the data dir. */
    public Path part() {
        return part;
    }

    public Path target() {
        return target;
    }

    /** Syncs the built data dir and renames it into place. */
    public void place() {
        try {
            FileTree.fsync(part);
            if (Files.exists(target)) {
                Files.move(target, replaced, StandardCopyOption.ATOMIC_MOVE);
            }
            Files.move(part, target, StandardCopyOption.ATOMIC_MOVE);
            FileTree.fsyncDir(target.getParent());
            placed = true;
            if (Files.exists(replaced)) {
                FileTree.delete(replaced);
            }
        } catch (DirectoryNotEmptyException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot place " + part + " at " + target + ": " + e, e);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot place " + part + " at " + target + ": "
                    + e.getMessage() + " (the data dir must be on the same file system as its parent dir, "
                    + "not a mount point itself)", e);
        }
    }

    /** Removes the partial data dir unless it was placed, and releases the lock. */
    @Override
    public void close() {
        try {
            if (!placed && Files.exists(part)) {
                FileTree.delete(part);
            }
        } catch (IOException e) {
            LOG.warn("cannot remove the partial data dir {}: {}", part, e.toString());
        } finally {
            try {
                lock.release();
            } catch (IOException e) {
                LOG.debug("lock release failed", e);
            }
            closeQuietly(lockChannel);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            LOG.debug("close failed", e);
        }
    }
}
