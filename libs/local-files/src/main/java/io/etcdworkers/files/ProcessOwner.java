package io.etcdworkers.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The user this process runs as (its effective uid, the owner of every file it creates), and
 * whether a path is that user's: read from {@code /proc/self/status} and the file's
 * {@code unix:uid}, as Linux gives them (the workers run on Linux only).
 */
public final class ProcessOwner {
    private static final Path STATUS = Path.of("/proc/self/status");
    private static volatile Integer uid;

    private ProcessOwner() {}

    /** The effective uid of this process. */
    public static int uid() throws IOException {
        Integer known = uid;
        if (known == null) {
            known = read();
            uid = known;
        }
        return known;
    }

    private static int read() throws IOException {
        // "Uid:	<real>	<effective>	<saved>	<filesystem>"
        for (String line : Files.readAllLines(STATUS)) {
            if (line.startsWith("Uid:")) {
                String[] ids = line.substring(4).trim().split("\\s+");
                if (ids.length >= 2) {
                    return Integer.parseInt(ids[1]);
                }
            }
        }
        throw new IOException("no Uid line in " + STATUS);
    }

    /** The owner's uid of {@code path} itself (a link's own, not its target's). */
    public static int ownerOf(Path path) throws IOException {
        return (Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    }

    /** Whether {@code path} itself belongs to this process's user. */
    public static boolean owns(Path path) throws IOException {
        return ownerOf(path) == uid();
    }
}
