package io.etcdworkers.files;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Says "the disk is full" in words when a local write failed for lack of space. */
public final class DiskFull {
    private static final String ENOSPC = "No space left on device";
    /** Lines, or the lines of an excerpt that joins them with " | " (etcd's log tail in a message). */
    private static final Pattern LINES = Pattern.compile("\\R| \\| ");

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

    /**
     * {@link #describe} for the dir a tool's output says is full: of {@code dataDir} and {@code
     * walDir} (etcd's WAL, on a file system of its own with {@code --scratch-wal-dir}), the one its
     * "no space left" lines name (etcd and its tools name the file they failed to write, such as
     * the WAL segment they preallocate); when no such line names either, both.
     */
    public static String describe(String toolOutput, Path dataDir, Optional<Path> walDir) {
        List<Path> dirs = Stream.concat(Stream.of(dataDir), walDir.stream()).toList();
        List<String> full = toolOutput == null
                ? List.of()
                : Arrays.stream(LINES.split(toolOutput)).filter(DiskFull::says).toList();
        Optional<Path> named = dirs.stream()
                .filter(d -> full.stream().anyMatch(line -> line.contains(d.toString())))
                .max(Comparator.comparingInt(d -> d.toString().length()));
        if (named.isPresent() || dirs.size() == 1) {
            return describe(named.orElse(dataDir));
        }
        return describe(dataDir) + " or " + describe(walDir.get());
    }

    /** {@code e}'s message, with {@link #describe} first when it is a full disk. */
    public static String explain(IOException e, Path where) {
        return is(e) ? describe(where) + ": " + e.getMessage() : String.valueOf(e.getMessage());
    }
}
