package io.etcdworkers.etcd;

import io.etcdworkers.files.FileTree;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A copy of a restored data dir ({@code member/snap/} and the WAL, from {@code member/wal/} or
 * the dir given to {@code --wal-dir}) as one whole data dir elsewhere: how the restore makes the
 * placed dir from the dir the verifying etcd then runs on, before that etcd starts, so the bytes
 * placed are the bytes verified and the placed dir stays one no etcd ran on. Directories are
 * created {@code 0700} and files {@code 0600}, as etcd's restore tools make them. Every byte is
 * written, the WAL segment's preallocated zeros too: they reserve its 64 MB on the member's disk
 * as the restore tool's preallocation does, so a disk too small fails here, not in the member.
 * Nothing is synced here; the caller syncs the copy before it relies on it.
 */
public final class DataDirCopy {
    static final String MEMBER = "member";
    static final String WAL = "wal";

    private DataDirCopy() {}

    /**
     * Copies the data dir {@code dataDir}, whose WAL is in {@code walDir} when given, into {@code
     * target}, which must be absent or empty; the copy's WAL is in {@code target/member/wal}.
     *
     * @return the bytes copied
     */
    public static long copy(Path dataDir, Optional<Path> walDir, Path target) throws IOException {
        Path wal = walDir.orElse(dataDir.resolve(MEMBER).resolve(WAL));
        if (!Files.isDirectory(wal) || !Files.isDirectory(dataDir.resolve(MEMBER))) {
            throw new IOException(
                    dataDir + " is not a restored etcd data dir (no " + MEMBER + " dir, or no WAL in " + wal + ")");
        }
        if (Files.exists(target) && !FileTree.isEmptyDirectory(target)) {
            throw new FileAlreadyExistsException(
                    target.toString(), null, "the copy's data dir exists and is not empty");
        }
        long bytes = copyTree(dataDir, target);
        if (walDir.isPresent()) {
            bytes += copyTree(walDir.get(), target.resolve(MEMBER).resolve(WAL));
        }
        return bytes;
    }

    private static long copyTree(Path source, Path target) throws IOException {
        long bytes = 0;
        try (Stream<Path> walk = Files.walk(source)) {
            for (Path from : (Iterable<Path>) walk::iterator) {
                Path to = target.resolve(source.relativize(from).toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(
                            to, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                } else if (Files.isRegularFile(from)) {
                    bytes += copyFile(from, to);
                } else {
                    throw new IOException("not a file or directory in a restored data dir: " + from);
                }
            }
        }
        return bytes;
    }

    /** Copied by the kernel ({@code transferTo}), every byte. */
    private static long copyFile(Path from, Path to) throws IOException {
        try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
                FileChannel out = create(to)) {
            long size = in.size();
            long position = 0;
            while (position < size) {
                long n = in.transferTo(position, size - position, out);
                if (n <= 0) {
                    throw new IOException("copy of " + from + " stopped at byte " + position + " of " + size);
                }
                position += n;
            }
            return size;
        }
    }

    private static FileChannel create(Path file) throws IOException {
        return FileChannel.open(
                file,
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
}
