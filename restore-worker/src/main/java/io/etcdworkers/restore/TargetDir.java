package io.etcdworkers.restore;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.files.FileTree;
import io.etcdworkers.files.LockFile;
import io.etcdworkers.files.OwnerOnly;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data dir a restore builds and places: built in {@code <data-dir>.part}, synced, then
 * renamed into place in one step, so the target is either untouched or complete.
 *
 * <p>{@code <data-dir>.lock} (a {@link LockFile}: held with an OS file lock for the whole run,
 * deleted when the run ends) keeps two workers off the same target. What a killed run left is
 * dealt with at the start of the next, under the lock: {@code .part} is removed; a
 * {@code .replaced} (a {@code --force} run killed while placing) is put back when the target is
 * missing, so the old data dir is never lost before a new one is in place, and removed when the
 * target is there (the new one, placed). A data dir a running etcd of this host holds is refused
 * before anything is touched ({@link ErrorCode#TARGET_IN_USE}), {@code force} or not. An existing non-empty data dir is refused unless
 * {@code force}; a target that is a mount point is refused before anything is downloaded.
 */
public final class TargetDir implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TargetDir.class);
    private static final String DATABASE = "member/snap/db";
    static final String NOT_A_MOUNT_POINT =
            "the data dir must be on the same file system as its parent dir, " + "not a mount point itself";

    private final Path target;
    private final Path part;
    private final Path replaced;
    private final LockFile lock;
    private final String flag;
    private boolean placed;

    private TargetDir(Path target, LockFile lock, String flag) {
        this.target = target;
        this.flag = flag;
        this.part = target.resolveSibling(target.getFileName() + ".part");
        this.replaced = target.resolveSibling(target.getFileName() + ".replaced");
        this.lock = lock;
    }

    /** Locks the target, checks it may be written and deals with what a killed run left. */
    public static TargetDir prepare(Path target, boolean force) {
        return prepare(target, force, WorkerFlags.DATA_DIR);
    }

    /** As above, for a target given by {@code flag} ({@code --data-dir}, {@code --output}), which messages name. */
    public static TargetDir prepare(Path target, boolean force, String flag) {
        Path parent = target.getParent();
        try {
            OwnerOnly.createDirectories(parent);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot create " + parent + ": " + e.getMessage(), e);
        }
        Path lockFile = target.resolveSibling(target.getFileName() + ".lock");
        LockFile lock;
        try {
            lock = LockFile.tryLock(lockFile)
                    .orElseThrow(() -> new WorkerException(
                            ErrorCode.TARGET_LOCKED,
                            "another worker is restoring into " + target + " (it holds " + lockFile
                                    + "); not touching it"));
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot lock " + lockFile + ": " + e.getMessage(), e);
        }
        TargetDir dir = new TargetDir(target, lock, flag);
        try {
            dir.checkAndClean(force, flag);
            return dir;
        } catch (IOException e) {
            dir.close();
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot prepare " + target + ": " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            dir.close();
            throw e;
        }
    }

    private void checkAndClean(boolean force, String flag) throws IOException {
        refuseRunningEtcd(flag);
        recoverReplaced();
        MountPoint.refuse(target);
        if (Files.exists(target) && !FileTree.isEmptyDirectory(target)) {
            String named = WorkerFlags.DATA_DIR.equals(flag) ? "data dir " : flag + " ";
            if (!force && !Files.isDirectory(target)) {
                throw new WorkerException(
                        ErrorCode.TARGET_NOT_EMPTY,
                        named + target + " is a file, not a directory: " + "give " + flag
                                + " the path of a new directory");
            }
            if (!force) {
                throw new WorkerException(
                        ErrorCode.TARGET_NOT_EMPTY,
                        named + target
                                + " exists and is not empty: refusing to replace it without --force (give " + flag
                                + " a new path, or --force to replace it once the new one is complete)");
            }
            LOG.warn("data dir exists and will be replaced after a successful restore (--force) dataDir={}", target);
        }
        if (Files.exists(part)) {
            LOG.warn("removing what an interrupted run left path={}", part);
            FileTree.delete(part);
        }
    }

    /**
     * A running etcd holds a {@code flock} on its data dir's {@code member/snap/db} ({@link
     * DatabaseHolders}): its dir is never replaced under it, which would leave it serving deleted
     * files and acknowledging writes that are then lost. Asked before anything is touched, and again
     * just before the rename. Only this host's processes are seen.
     */
    private void refuseRunningEtcd(String flag) throws IOException {
        Path db = target.resolve(DATABASE);
        List<DatabaseHolders.Holder> holders = DatabaseHolders.of(db);
        if (holders.isEmpty()) {
            return;
        }
        String who = holders.stream()
                .map(h -> h.pid() == 0 ? "a process this host does not name" : h.toString())
                .collect(Collectors.joining(", "));
        String named = WorkerFlags.DATA_DIR.equals(flag) ? "data dir " : flag + " ";
        throw new WorkerException(
                ErrorCode.TARGET_IN_USE,
                "an etcd is running on " + named + target + ": " + who + " holds a lock on " + db
                        + "; stop it before replacing its data dir (nothing was touched)");
    }

    /**
     * A {@code --force} run killed between its two renames left the old data dir at
     * {@code .replaced} and nothing (or an empty dir) at the target: it goes back. Killed after
     * the second rename, the target is the new, complete one and {@code .replaced} is garbage.
     */
    private void recoverReplaced() throws IOException {
        if (!Files.exists(replaced)) {
            return;
        }
        if (Files.exists(target) && !FileTree.isEmptyDirectory(target)) {
            LOG.warn("removing the old data dir an interrupted --force run had already replaced path={}", replaced);
            FileTree.delete(replaced);
            return;
        }
        Files.deleteIfExists(target);
        Files.move(replaced, target, StandardCopyOption.ATOMIC_MOVE);
        FileTree.fsyncDir(target.getParent());
        LOG.warn(
                "put back the data dir an interrupted --force run had moved aside from={} dataDir={}",
                replaced,
                target);
    }

    /** Where the restore builds the data dir. */
    public Path part() {
        return part;
    }

    public Path target() {
        return target;
    }

    /** Narrows the built dir to its owner ({@code 0700}/{@code 0600}), syncs it and renames it into place. */
    public void place() {
        try {
            refuseRunningEtcd(flag);
            OwnerOnly.restrict(part);
            FileTree.fsync(part);
            if (Files.exists(target)) {
                Files.move(target, replaced, StandardCopyOption.ATOMIC_MOVE);
            }
            try {
                Files.move(part, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                if (Files.exists(replaced) && !Files.exists(target)) {
                    Files.move(replaced, target, StandardCopyOption.ATOMIC_MOVE); // the old one stays
                }
                throw e;
            }
            FileTree.fsyncDir(target.getParent());
            placed = true;
            if (Files.exists(replaced)) {
                FileTree.delete(replaced);
            }
        } catch (DirectoryNotEmptyException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot place " + part + " at " + target + ": " + e, e);
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot place " + part + " at " + target + ": " + e.getMessage() + " (" + NOT_A_MOUNT_POINT + ")",
                    e);
        }
    }

    /** Removes the partial data dir unless it was placed, then removes and releases the lock. */
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
                lock.close();
            } catch (IOException e) {
                LOG.warn("cannot remove the lock file {}: {}", lock.path(), e.toString());
            }
        }
    }
}
