package io.etcdworkers.restore.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's own dir under the scratch dir, {@code <scratch>/<kind>-<n>}, locked for the run's whole
 * life by {@code <scratch>/<kind>-<n>.lock} (a {@link LockFile}), so that a later run can tell a
 * dead run's dir from a live one's: whatever lock it can take belongs to a run that is gone.
 *
 * <p>{@link #create} first removes every {@code restore-*} and {@code compact-*} dir whose lock is
 * free (runs killed by SIGKILL or the OOM killer, which run no cleanup), then creates its own:
 * the lock file is created and locked before the dir exists, and the dir is deleted before the
 * lock file, so a live run's dir always has a held lock. {@link #close} deletes the dir.
 */
public final class ScratchDir implements AutoCloseable {
    /** The kinds of run dirs the workers make under a scratch dir. */
    public static final List<String> KINDS = List.of("restore-", "compact-");
    static final String LOCK_SUFFIX = ".lock";
    /** A run's WAL dir under {@code --scratch-wal-dir} is named after its scratch dir plus this. */
    public static final String WAL_SUFFIX = "-wal";
    private static final int ATTEMPTS = 10;
    private static final Logger LOG = LoggerFactory.getLogger(ScratchDir.class);

    private final Path path;
    private final LockFile lock;

    private ScratchDir(Path path, LockFile lock) {
        this.path = path;
        this.lock = lock;
    }

    /** Removes what dead runs left under {@code root}, then creates and locks {@code root/<kind><n>}. */
    public static ScratchDir create(Path root, String kind) throws IOException {
        Files.createDirectories(root);
        removeDead(root, root, "");
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Path lockFile = Files.createTempFile(root, kind, LOCK_SUFFIX);
            Optional<LockFile> lock = LockFile.tryLock(lockFile);
            if (lock.isEmpty()) {
                continue; // another run's sweep took it first and removes it: pick another name
            }
            String name = lockFile.getFileName().toString();
            Path dir = root.resolve(strip(name, LOCK_SUFFIX));
            try {
                FileTree.delete(dir); // only a dead run's, from before runs locked their dirs
                Files.createDirectory(dir);
                return new ScratchDir(dir, lock.get());
            } catch (IOException | RuntimeException e) {
                lock.get().close();
                throw e;
            }
        }
        throw new IOException("cannot create a locked scratch dir under " + root + " in " + ATTEMPTS + " attempts");
    }

    /**
     * Removes each {@code <kind>*<suffix>} entry of {@code dir} whose run is dead: the lock
     * {@code lockDir/<kind>*.lock} could be taken. With {@code suffix} {@link #WAL_SUFFIX} this clears a
     * {@code --scratch-wal-dir} of the WAL dirs of dead runs (their locks live in the scratch dir).
     *
     * @return what was removed
     */
    public static List<Path> removeDead(Path dir, Path lockDir, String suffix) throws IOException {
        List<Path> removed = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return removed;
        }
        TreeSet<String> runs = new TreeSet<>();
        try (Stream<Path> entries = Files.list(dir)) {
            for (String name : (Iterable<String>) entries.map(p -> p.getFileName().toString())::iterator) {
                if (KINDS.stream().noneMatch(name::startsWith)) {
                    continue;
                }
                if (suffix.isEmpty()) {
                    if (name.endsWith(WAL_SUFFIX)) {
                        continue; // a WAL dir (--scratch-wal-dir may be the scratch dir): its run's lock decides
                    }
                    runs.add(name.endsWith(LOCK_SUFFIX) ? strip(name, LOCK_SUFFIX) : name);
                } else if (name.endsWith(suffix)) {
                    runs.add(strip(name, suffix));
                }
            }
        }
        for (String run : runs) {
            Optional<LockFile> lock = LockFile.tryLock(lockDir.resolve(run + LOCK_SUFFIX));
            if (lock.isEmpty()) {
                continue; // a live run's
            }
            try (LockFile dead = lock.get()) {
                Path leftover = dir.resolve(run + suffix);
                if (Files.exists(leftover)) {
                    LOG.warn("removing what an interrupted run left path={} bytes={}", leftover, FileTree.size(leftover));
                    FileTree.delete(leftover);
                    removed.add(leftover);
                }
            }
        }
        return removed;
    }

    private static String strip(String name, String suffix) {
        return name.substring(0, name.length() - suffix.length());
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
