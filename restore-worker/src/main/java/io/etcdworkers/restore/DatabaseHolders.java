package io.etcdworkers.restore;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a process of this host holds a {@code flock(2)} on a file, and which: how a running etcd
 * is told from a stopped one by its data dir. etcd (bbolt) holds an exclusive {@code flock} on
 * {@code member/snap/db} for as long as it runs. Java's {@code FileChannel} locks are POSIX
 * ({@code fcntl}) locks, which do not see a {@code flock}, so the question is asked with
 * {@code flock} itself ({@code LOCK_EX | LOCK_NB} on a read-only descriptor, released at once by
 * closing it), and the holder is named from {@code /proc/locks} (its {@code FLOCK} entries for the
 * file's device and inode carry the pid) and {@code /proc/<pid>/cmdline}.
 *
 * <p>Only this host's processes are seen: an etcd on another node sharing the storage holds its
 * lock on that node's kernel.
 */
final class DatabaseHolders {
    private static final int O_RDONLY = 0;
    private static final int LOCK_EX = 2;
    private static final int LOCK_NB = 4;
    private static final int EWOULDBLOCK_LINUX = 11;
    private static final int EWOULDBLOCK_BSD = 35;
    private static final int CMDLINE_CHARS = 300;
    private static final Path PROC = Path.of("/proc");

    /** A process that holds the lock: its pid and, where {@code /proc} tells, its command line. */
    record Holder(long pid, Optional<String> commandLine) {
        @Override
        public String toString() {
            return "pid " + pid + commandLine.map(c -> " (" + c + ")").orElse("");
        }
    }

    /** The part of the C library this asks. */
    interface LibC extends Library {
        int open(String path, int flags) throws LastErrorException;

        int flock(int fd, int operation) throws LastErrorException;

        int close(int fd) throws LastErrorException;
    }

    private DatabaseHolders() {}

    /**
     * The processes holding a {@code flock} on {@code file}: empty when it is free or missing. When
     * {@code flock} says it is held but {@code /proc/locks} names no one (another pid namespace, no
     * {@code /proc}), one holder of pid 0 stands for "unknown".
     */
    static List<Holder> of(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        Optional<Boolean> held = flockHeld(file);
        List<Holder> named = fromProcLocks(file);
        if (held.isPresent() && !held.get()) {
            return List.of();
        }
        if (held.isPresent() && named.isEmpty()) {
            return List.of(new Holder(0, Optional.empty()));
        }
        return named;
    }

    /** Empty when the C library cannot be asked. */
    private static Optional<Boolean> flockHeld(Path file) {
        LibC libc;
        try {
            libc = Native.load("c", LibC.class);
        } catch (UnsatisfiedLinkError e) {
            return Optional.empty();
        }
        int fd;
        try {
            fd = libc.open(file.toString(), O_RDONLY);
        } catch (LastErrorException e) {
            return Optional.empty();
        }
        try {
            libc.flock(fd, LOCK_EX | LOCK_NB);
            return Optional.of(false);
        } catch (LastErrorException e) {
            int errno = e.getErrorCode();
            return errno == EWOULDBLOCK_LINUX || errno == EWOULDBLOCK_BSD ? Optional.of(true) : Optional.empty();
        } finally {
            libc.close(fd); // releases the lock, if it was taken
        }
    }

    /** {@code /proc/locks}'s {@code FLOCK} holders of {@code file} (its inode, and its device where they agree). */
    private static List<Holder> fromProcLocks(Path file) throws IOException {
        Path locks = PROC.resolve("locks");
        if (!Files.isReadable(locks)) {
            return List.of();
        }
        long inode = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
        long dev = ((Number) Files.getAttribute(file, "unix:dev")).longValue();
        String device = String.format("%02x:%02x", major(dev), minor(dev));
        List<Holder> sameDevice = new ArrayList<>();
        List<Holder> sameInode = new ArrayList<>();
        for (String line : Files.readAllLines(locks, StandardCharsets.US_ASCII)) {
            // "1: FLOCK  ADVISORY  WRITE 4711 08:01:1234567 0 EOF"; waiters ("1: -> FLOCK ...") hold nothing
            String[] f = line.trim().split("\\s+");
            if (f.length < 6 || !"FLOCK".equals(f[1])) {
                continue;
            }
            int last = f[5].lastIndexOf(':');
            if (last < 0 || !f[5].substring(last + 1).equals(Long.toString(inode))) {
                continue;
            }
            long pid = Long.parseLong(f[4]);
            Holder holder = new Holder(pid, commandLine(pid));
            sameInode.add(holder);
            if (f[5].substring(0, last).equalsIgnoreCase(device)) {
                sameDevice.add(holder);
            }
        }
        return sameDevice.isEmpty() ? sameInode : sameDevice;
    }

    private static Optional<String> commandLine(long pid) {
        try {
            byte[] bytes = Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("cmdline"));
            String line =
                    new String(bytes, StandardCharsets.UTF_8).replace('\0', ' ').trim();
            if (line.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(line.length() > CMDLINE_CHARS ? line.substring(0, CMDLINE_CHARS) + "..." : line);
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    private static long major(long dev) {
        return ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
    }

    private static long minor(long dev) {
        return (dev & 0xff) | ((dev >>> 12) & ~0xffL);
    }
}
