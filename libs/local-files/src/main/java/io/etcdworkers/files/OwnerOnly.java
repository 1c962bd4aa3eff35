package io.etcdworkers.files;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Files and directories only their owner can read: every file the workers create in a scratch
 * dir, an extract's output or a data dir they place holds keys and values (Secrets among them),
 * so files are {@code 0600} and directories {@code 0700}, whatever the process's umask. The mode
 * is given at creation ({@code open(2)}/{@code mkdir(2)} with it), never widened and narrowed
 * afterwards, so there is no moment at which another user could open the file; a umask can
 * only take bits away from it. What other programs create (etcd, its restore tools) is run with
 * umask {@code 077} and narrowed by {@link #restrict} before it is placed.
 */
public final class OwnerOnly {
    public static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
    public static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");
    public static final FileAttribute<Set<PosixFilePermission>> FILE = PosixFilePermissions.asFileAttribute(FILE_MODE);
    public static final FileAttribute<Set<PosixFilePermission>> DIR = PosixFilePermissions.asFileAttribute(DIR_MODE);

    private OwnerOnly() {}

    /** {@code dir} and its missing parents, each created {@code 0700}; existing ones are left as they are. */
    public static Path createDirectories(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath();
        List<Path> missing = new ArrayList<>();
        for (Path p = absolute; p != null && !Files.exists(p); p = p.getParent()) {
            missing.add(0, p);
        }
        for (Path p : missing) {
            try {
                Files.createDirectory(p, DIR);
            } catch (FileAlreadyExistsException createdMeanwhile) {
                if (!Files.isDirectory(p)) {
                    throw createdMeanwhile;
                }
            }
        }
        if (!Files.isDirectory(absolute)) {
            throw new FileAlreadyExistsException(dir.toString(), null, "exists and is not a directory");
        }
        return dir;
    }

    /** A new directory, {@code 0700}; it must not exist. */
    public static Path createDirectory(Path dir) throws IOException {
        return Files.createDirectory(dir, DIR);
    }

    /** A file channel as {@link FileChannel#open(Path, OpenOption...)} opens it, the file created {@code 0600}. */
    public static FileChannel open(Path file, OpenOption... options) throws IOException {
        return FileChannel.open(file, Set.of(options), FILE);
    }

    /**
     * An output stream as {@link Files#newOutputStream} opens it (created or truncated, or as
     * {@code options} say), a file it creates being {@code 0600}.
     */
    public static OutputStream newOutputStream(Path file, OpenOption... options) throws IOException {
        Set<OpenOption> opts = new HashSet<>(List.of(options));
        if (opts.isEmpty()) {
            opts.addAll(List.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING));
        }
        opts.add(StandardOpenOption.WRITE);
        return Channels.newOutputStream(FileChannel.open(file, opts, FILE));
    }

    /** A UTF-8 writer of a new or truncated file, created {@code 0600}. */
    public static BufferedWriter newBufferedWriter(Path file) throws IOException {
        return new BufferedWriter(new OutputStreamWriter(newOutputStream(file), StandardCharsets.UTF_8));
    }

    /** Writes {@code bytes} to {@code file} as {@link Files#write} does, a file it creates being {@code 0600}. */
    public static void write(Path file, byte[] bytes, OpenOption... options) throws IOException {
        try (OutputStream out = newOutputStream(file, options)) {
            out.write(bytes);
        }
    }

    /**
     * Narrows every directory under {@code root} (itself included) to {@code 0700} and every
     * regular file to {@code 0600}; symbolic links are neither followed nor changed. For trees
     * another program wrote (etcd's restore tools write a {@code .snap} file with the umask's
     * mode) before they are placed.
     */
    public static void restrict(Path root) throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.setPosixFilePermissions(dir, DIR_MODE);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (attrs.isRegularFile()) {
                    Files.setPosixFilePermissions(file, FILE_MODE);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
