package io.etcdworkers.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes what dead runs of this program left in a scratch dir, and nothing else: a scratch dir
 * may be a temp dir that other programs and other users share.
 *
 * <p>A run is provably this program's and dead when its lock file {@code <kind><n>.lock} (the
 * names {@link ScratchDir} gives: {@code restore-} or {@code compact-}, digits) is a regular file
 * owned by this process's user, carries the run's marker ({@link ScratchDir#marker}), and its
 * lock can be taken (the kernel released it when its holder died). Of such a run, only the
 * layout {@link ScratchDir} and the engines make is removed, each entry only when it is a
 * directory (not a link) of this process's user: {@code <scratch>/<run>}, and under the WAL dir
 * {@code <run>-wal} and etcd's {@code <run>-wal.tmp}; then the lock file. Everything else is left
 * as it is: other names, other users' entries, links, lock files without the marker (other
 * programs', or this program's before it marked its runs), dirs without a lock file. What was
 * left and why is logged once at INFO.
 */
public final class ScratchSweep {
    private static final Logger LOG = LoggerFactory.getLogger(ScratchSweep.class);
    private static final Pattern LOCK = Pattern.compile("(restore|compact)-\\d+\\.lock");
    private static final Pattern RUN = Pattern.compile("(restore|compact)-\\d+");
    private static final Pattern RUN_WAL = Pattern.compile("(restore|compact)-\\d+-wal(\\.tmp)?");
    /** A run's marker is far shorter; a larger file is not one of its locks. */
    private static final int MARKER_MAX = 256;

    private static final int NAMED_IN_LOG = 10;

    private final Path root;
    private final Optional<Path> walRoot;
    private final int uid;
    private final List<Path> removed = new ArrayList<>();
    /** Entries named like a run's that were left, with why. */
    private final TreeMap<Path, String> left = new TreeMap<>();

    private ScratchSweep(Path root, Optional<Path> walRoot, int uid) {
        this.root = root;
        this.walRoot = walRoot;
        this.uid = uid;
    }

    /**
     * Removes what dead runs of this program left in {@code root}, and their WAL dirs under
     * {@code walRoot}; see the class contract.
     *
     * @return what was removed
     */
    public static List<Path> removeDead(Path root, Optional<Path> walRoot) throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of(); // (the scratch dir itself may be a link: the one given is the one swept)
        }
        ScratchSweep sweep = new ScratchSweep(root, walRoot, ProcessOwner.uid());
        sweep.run();
        return List.copyOf(sweep.removed);
    }

    private void run() throws IOException {
        TreeSet<String> locked = new TreeSet<>();
        List<String> others = new ArrayList<>();
        try (Stream<Path> entries = Files.list(root)) {
            for (String name :
                    (Iterable<String>) entries.map(p -> p.getFileName().toString())::iterator) {
                if (LOCK.matcher(name).matches()) {
                    locked.add(ScratchDir.runOf(name));
                } else if (ScratchDir.KINDS.stream().anyMatch(name::startsWith)) {
                    others.add(name);
                }
            }
        }
        for (String run : locked) {
            sweep(run);
        }
        for (String name : others) {
            String run = name.replaceFirst("-wal(\\.tmp)?$", "");
            if (!locked.contains(run)) {
                left.put(
                        root.resolve(name),
                        RUN.matcher(name).matches() || RUN_WAL.matcher(name).matches()
                                ? "no lock file of a run of this program beside it"
                                : "not a name this program gives");
            }
        }
        if (!left.isEmpty()) {
            left.forEach((path, why) -> LOG.debug("left in the scratch dir path={} why={}", path, why));
            LOG.info(
                    "left {} entries named like run dirs in {}, not provably left by a run of this program: {}{}",
                    left.size(),
                    root,
                    left.entrySet().stream()
                            .limit(NAMED_IN_LOG)
                            .map(e -> (e.getKey().startsWith(root) ? root.relativize(e.getKey()) : e.getKey()) + " ("
                                    + e.getValue() + ")")
                            .toList(),
                    left.size() > NAMED_IN_LOG ? " and more (DEBUG lists them)" : "");
        }
    }

    /** Removes what run {@code run} left when it is provably this program's and dead. */
    private void sweep(String run) throws IOException {
        Path lockFile = root.resolve(run + ScratchDir.LOCK_SUFFIX);
        Optional<String> foreign;
        try {
            foreign = notOurs(lockFile, false);
        } catch (NoSuchFileException endedMeanwhile) {
            return;
        }
        if (foreign.isPresent()) {
            left.put(lockFile, foreign.get());
            return;
        }
        Optional<LockFile> held = LockFile.tryLockExisting(lockFile);
        if (held.isEmpty()) {
            return; // a live run's (or it ended meanwhile)
        }
        LockFile lock = held.get();
        String content;
        try {
            content = lock.read(MARKER_MAX);
        } catch (IOException | RuntimeException e) {
            lock.closeKeepingFile();
            throw e;
        }
        if (!ScratchDir.isMarker(content, run)) {
            lock.closeKeepingFile();
            left.put(lockFile, "its content is not a run's marker");
            return;
        }
        try (lock) {
            List<Path> leftovers = new ArrayList<>(List.of(root.resolve(run)));
            walRoot.ifPresent(w -> leftovers.addAll(
                    List.of(w.resolve(run + ScratchDir.WAL_SUFFIX), w.resolve(run + ScratchDir.WAL_SUFFIX + ".tmp"))));
            for (Path leftover : leftovers) {
                remove(leftover);
            }
        }
    }

    private void remove(Path leftover) throws IOException {
        Optional<String> foreign;
        try {
            foreign = notOurs(leftover, true);
        } catch (NoSuchFileException none) {
            return;
        }
        if (foreign.isPresent()) {
            left.put(leftover, foreign.get());
            return;
        }
        LOG.warn("removing what an interrupted run left path={} bytes={}", leftover, FileTree.size(leftover));
        FileTree.delete(leftover);
        removed.add(leftover);
    }

    /**
     * Why {@code path} is not an entry a run of this program made, or empty when it may be.
     *
     * @throws NoSuchFileException when there is no such entry
     */
    private Optional<String> notOurs(Path path, boolean directory) throws IOException {
        BasicFileAttributes attrs = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        int owner = ProcessOwner.ownerOf(path);
        if (attrs.isSymbolicLink()) {
            return Optional.of("a symbolic link");
        }
        if (directory ? !attrs.isDirectory() : !attrs.isRegularFile()) {
            return Optional.of(directory ? "not a directory" : "not a regular file");
        }
        if (owner != uid) {
            return Optional.of("owned by uid " + owner + ", not by this process's " + uid);
        }
        if (!directory && attrs.size() == 0) {
            // a run writes its marker once it holds the lock: before, this may be a run starting
            return Optional.of("an empty lock file, without a run's marker");
        }
        if (!directory && attrs.size() > MARKER_MAX) {
            return Optional.of("too large for a run's lock file");
        }
        return Optional.empty();
    }
}
