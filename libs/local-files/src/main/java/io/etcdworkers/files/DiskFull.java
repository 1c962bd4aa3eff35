package io.etcdworkers.files;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Says "the disk is full" in words when a local write failed for lack of space. */
public final class DiskFull {
    private static final String ENOSPC = "No space left on device";

    private DiskFull() {}

    /** Whether the failure (or its cause) is the OS's ENOSPC, or the text says it is (etcd's log). */
    public static boolean is(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(ENOSPC)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a tool's output says it ran out of space (etcd/Go write "no space left on device"). */
    public static boolean says(String text) {
        return text != null && text.toLowerCase(Locale.ROOT).contains(ENOSPC.toLowerCase(Locale.ROOT));
    }

    /**
     * A sentence naming {@code where} and the space left on its file system, e.g. {@code the file
     * system holding /scratch is full (no space left on device; 0 of 8388608 bytes free)}.
     */
    public static String describe(Path where) {
        Path existing = where.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        String space = "";
        if (existing != null) {
            try {
                FileStore store = Files.getFileStore(existing);
                space = "; now " + store.getUsableSpace() + " of " + store.getTotalSpace() + " bytes free";
            } catch (IOException e) {
                space = "";
            }
        }
        return "the file system holding " + where + " is full (no space left on device" + space + ")";
    }

    /** {@code e}'s message, with {@link #describe} first when it is a full disk. */
    public static String explain(IOException e, Path where) {
        return is(e) ? describe(where) + ": " + e.getMessage() : String.valueOf(e.getMessage());
    }
}
