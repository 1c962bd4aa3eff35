package io.etcdworkers.files;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A run's own dir under the scratch dir, {@code <scratch>/<kind><n>} ({@code n} as
 * {@link Files#createTempFile} makes it), locked for the run's whole life by
 * {@code <scratch>/<kind><n>.lock} (a {@link LockFile}), so that a later run can tell a dead
 * run's dir from a live one's: whatever lock it can take belongs to a run that is gone.
 *
 * <p>{@link #create} first removes what dead runs of this program left ({@link ScratchSweep}:
 * runs killed by SIGKILL or the OOM killer run no cleanup), then creates its own: the lock file
 * is created ({@code 0600}), locked and given the run's marker ({@link #marker}) before the dir
 * exists, the dir is created {@code 0700} (never taken over: a name that exists is left to its
 * owner and another is drawn), and on {@link #close} the dir is deleted before the lock file, so
 * a live run's dir always has a held lock and every run dir a marked lock.
 */
public final class ScratchDir implements AutoCloseable {
    /** The kinds of run dirs the workers make under a scratch dir. */
    public static final List<String> KINDS = List.of("restore-", "compact-");

    static final String LOCK_SUFFIX = ".lock";
    /** A run's WAL dir under {@code --scratch-wal-dir} is named after its scratch dir plus this. */
    public static final String WAL_SUFFIX = "-wal";

    /**
     * etcd and its snapshot restore tools create a WAL in {@code <wal-dir>.tmp} beside the WAL dir
     * and rename it into place; a failed or killed one leaves it there.
     */
    public static final String WAL_TMP_SUFFIX = ".tmp";

    /** The temp dir etcd's tools write a WAL dir's first segment in before renaming it. */
    public static Path walTmpOf(Path walDir) {
        return walDir.resolveSibling(walDir.getFileName() + WAL_TMP_SUFFIX);
    }
    /** The first line of a run's lock file, followed by the run's name: what makes it provably this program's. */
    static final String MARKER = "etcd-workers scratch run ";

    private static final int ATTEMPTS = 10;

    private final Path path;
    private final LockFile lock;

    private ScratchDir(Path path, LockFile lock) {
        this.path = path;
        this.lock = lock;
    }

    /** {@link #create(Path, String, Optional)} without a WAL dir. */
    public static ScratchDir create(Path root, String kind) throws IOException {
        return create(root, kind, Optional.empty());
    }

    /**
     * Removes what dead runs of this program left under {@code root} (and their WAL dirs under
     * {@code walRoot}), then creates and locks {@code root/<kind><n>}; {@code root} is created
     * ({@code 0700}) when missing.
     */
    public static ScratchDir create(Path root, String kind, Optional<Path> walRoot) throws IOException {
        if (!KINDS.contains(kind)) {
            throw new IllegalArgumentException("not a kind of run dir: " + kind);
        }
        OwnerOnly.createDirectories(root);
        ScratchSweep.removeDead(root, walRoot);
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Path lockFile = Files.createTempFile(root, kind, LOCK_SUFFIX);
            Optional<LockFile> lock = LockFile.tryLock(lockFile);
            if (lock.isEmpty()) {
                continue; // not expected: a sweep takes only locks that carry a marker
            }
            String run = runOf(lockFile.getFileName().toString());
            Path dir = root.resolve(run);
            try {
                lock.get().write(marker(run));
                OwnerOnly.createDirectory(dir);
                return new ScratchDir(dir, lock.get());
            } catch (FileAlreadyExistsException someoneElses) {
                lock.get().close(); // the name is taken by an entry this run did not make: leave it, draw another
            } catch (IOException | RuntimeException e) {
                lock.get().close();
                throw e;
            }
        }
        throw new IOException("cannot create a locked scratch dir under " + root + " in " + ATTEMPTS + " attempts");
    }

    /** What the lock file of run {@code run} holds. */
    static String marker(String run) {
        return MARKER + run + "\npid " + ProcessHandle.current().pid() + "\n";
    }

    /** Whether {@code content} of a lock file is the marker of run {@code run}. */
    static boolean isMarker(String content, String run) {
        return content.startsWith(MARKER + run + "\n");
    }

    static String runOf(String lockName) {
        return lockName.substring(0, lockName.length() - LOCK_SUFFIX.length());
    }

    public Path path() {
        return path;
    }

    /** Deletes the dir, then the lock file (which releases the lock). */
    @Override
    public void close() throws IOException {
        try {
            FileTree.delete(path);
        } finally {
            lock.close();
        }
    }
}
