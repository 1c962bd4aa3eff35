package io.etcdworkers.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The modes of everything under some dirs while a program runs there: a thread of its own walks
 * them every few milliseconds (links are not followed) and keeps, for each path, every type and
 * permission string it was seen with ({@code "d rwx------"}, {@code "f rw-r--r--"}, {@code "l"}).
 * A file that lives across a walk is seen with the mode it had then; one created and removed
 * between two walks is not seen at all, so a test also names files it must have seen.
 */
public final class TreeModes implements AutoCloseable {
    /** The owner-only modes: directories 0700, regular files 0600. */
    public static final Set<String> OWNER_ONLY = Set.of("d rwx------", "f rw-------");

    private static final long EVERY_MS = 5;

    private final List<Path> roots;
    private final Map<Path, Set<String>> seen = new ConcurrentHashMap<>();
    private final ScheduledExecutorService walker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tree-modes");
        t.setDaemon(true);
        return t;
    });
    private volatile IOException failure;

    private TreeModes(List<Path> roots) {
        this.roots = List.copyOf(roots);
    }

    /** Starts watching {@code roots}; a root that does not exist yet is watched once it does. */
    public static TreeModes watch(Path... roots) {
        TreeModes modes = new TreeModes(List.of(roots));
        modes.walker.scheduleWithFixedDelay(modes::walkOrRecord, 0, EVERY_MS, TimeUnit.MILLISECONDS);
        return modes;
    }

    /** One walk of {@code roots}, now: the modes they have at the end of a run. */
    public static TreeModes now(Path... roots) {
        TreeModes modes = new TreeModes(List.of(roots));
        modes.close();
        return modes;
    }

    /** Stops watching after one last walk. */
    @Override
    public void close() {
        walker.shutdown();
        try {
            if (!walker.awaitTermination(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the walker did not stop");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        walkOrRecord();
        if (failure != null) {
            throw new UncheckedIOException("a walk failed", failure);
        }
    }

    /** Every path seen, with the types and modes it was seen with, in path order. */
    public Map<Path, Set<String>> seen() {
        return new TreeMap<>(seen);
    }

    /** The paths seen at least once with another mode than {@link #OWNER_ONLY}'s, each with what was seen. */
    public List<String> notOwnerOnly() {
        List<String> wrong = new ArrayList<>();
        seen().forEach((path, modes) -> {
            if (!OWNER_ONLY.containsAll(modes)) {
                wrong.add(path + " " + modes);
            }
        });
        return wrong;
    }

    private void walkOrRecord() {
        try {
            for (Path root : roots) {
                walk(root);
            }
        } catch (IOException e) {
            failure = e;
        }
    }

    private void walk(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                record(dir);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                record(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE; // removed while walking
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private void record(Path path) {
        PosixFileAttributes attrs;
        try {
            attrs = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException removedMeanwhile) {
            return;
        }
        String mode;
        if (attrs.isSymbolicLink()) {
            mode = "l";
        } else if (attrs.isDirectory()) {
            mode = "d " + PosixFilePermissions.toString(attrs.permissions());
        } else if (attrs.isRegularFile()) {
            mode = "f " + PosixFilePermissions.toString(attrs.permissions());
        } else {
            mode = "o " + PosixFilePermissions.toString(attrs.permissions());
        }
        seen.computeIfAbsent(path, p -> ConcurrentHashMap.newKeySet()).add(mode);
    }
}
