package io.etcdworkers.testsupport.pod;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What a kubelet does to a volume for the pod's {@code fsGroup} (its {@code SetVolumeOwnership}):
 * every file and directory gets the group, files the group's read (read-only volume) or read and
 * write, directories also the group's search bit and set-group-ID, so what the pod creates there
 * belongs to the group as well; symlinks keep their target's mode. With {@code OnRootMismatch} a
 * volume whose root already has the group and those bits is left as it is.
 */
final class VolumeOwnership {
    private static final int RW = 0660;
    private static final int RO = 0440;
    private static final int EXEC = 0110;
    private static final int SETGID = 02000;

    private VolumeOwnership() {}

    static void apply(Path root, long fsGroup, boolean readOnly, String changePolicy) {
        try {
            if ("OnRootMismatch".equals(changePolicy) && !needsChange(root, fsGroup, readOnly)) {
                return;
            }
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    Files.setAttribute(file, "unix:gid", (int) fsGroup, LinkOption.NOFOLLOW_LINKS);
                    if (Files.isSymbolicLink(file)) {
                        continue;
                    }
                    int mask = readOnly ? RO : RW;
                    if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
                        mask |= SETGID | EXEC;
                    }
                    Files.setAttribute(file, "unix:mode", mode(file) | mask);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot give " + root + " to group " + fsGroup, e);
        }
    }

    private static boolean needsChange(Path root, long fsGroup, boolean readOnly) throws IOException {
        if (((Number) Files.getAttribute(root, "unix:gid")).longValue() != fsGroup || !Files.isDirectory(root)) {
            return true;
        }
        int wanted = (readOnly ? RO : RW) | EXEC;
        int mode = mode(root);
        return (mode & wanted) != wanted || (mode & SETGID) == 0;
    }

    /** The permission bits with set-user-ID, set-group-ID and sticky. */
    static int mode(Path file) throws IOException {
        return ((Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS)) & 07777;
    }
}
