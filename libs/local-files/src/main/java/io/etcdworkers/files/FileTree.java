package io.etcdworkers.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Recursive file operations the workers need: durable sync, copy, emptiness and delete of a tree. */
public final class FileTree {
    private FileTree() {}

    /** fsync of every file and directory under {@code root}, deepest first. */
    public static void fsync(Path root) throws IOException {
        List<Path> dirs = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (attrs.isRegularFile()) {
                    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                        channel.force(true);
                    }
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                if (exc != null) {
                    throw exc;
                }
                dirs.add(dir);
                return FileVisitResult.CONTINUE;
            }
        });
        for (Path dir : dirs) {
            fsyncDir(dir);
        }
    }

    public static void fsyncDir(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    /** Copies {@code source} into {@code target} (created), files ({@code 0600}) and directories ({@code 0700}). */
    public static void copy(Path source, Path target) throws IOException {
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path to = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    OwnerOnly.createDirectories(to);
                } else {
                    try (InputStream in = Files.newInputStream(path);
                            OutputStream out = OwnerOnly.newOutputStream(to, StandardOpenOption.CREATE_NEW)) {
                        in.transferTo(out);
                    }
                }
            }
        }
    }

    /** Deletes {@code root} and everything under it; a missing root is fine. Symlinks are not followed. */
    public static void delete(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                if (exc != null) {
                    throw exc;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** The bytes of the regular files under {@code root} (for logs; 0 when it is gone meanwhile). */
    public static long size(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(f -> f.toFile().length())
                    .sum();
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
    }

    /** Whether {@code dir} is an existing directory with no entries. */
    public static boolean isEmptyDirectory(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }
}
