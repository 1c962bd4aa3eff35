package io.etcdworkers.etcd;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The last lines of a child process's output, cut down to what a person needs in an error
 * message.
 *
 * <p>Contract: at most {@code maxLines} lines, each at most {@value #MAX_LINE_CHARS} characters,
 * joined with {@code " | "}. A Go panic ends with a goroutine dump that says nothing to an
 * operator, so everything from the first {@code goroutine N [...]} line on is dropped and the
 * lines before it (zap's JSON error line and {@code panic: ...}) are kept. The same goes for the
 * {@code "stacktrace"} field zap adds to fatal lines: it would push the error out of the cut.
 */
public final class LogTail {
    static final int MAX_LINE_CHARS = 400;
    // Enough for a few dozen log lines before a goroutine dump; the log itself may be large.
    private static final int MAX_TAIL_BYTES = 64 * 1024;
    private static final Pattern ZAP_STACKTRACE = Pattern.compile(",\\s*\"stacktrace\":\"(?:[^\"\\\\]|\\\\.)*\"");

    private LogTail() {}

    /** The excerpt of {@code text}, see the class contract. */
    public static String excerpt(String text, int maxLines) {
        List<String> kept = new ArrayList<>();
        for (String line : text.split("\\R")) {
            if (line.startsWith("goroutine ") && line.endsWith(":")) {
                break;
            }
            if (!line.isBlank()) {
                line = ZAP_STACKTRACE.matcher(line).replaceAll("");
                kept.add(line.length() > MAX_LINE_CHARS ? line.substring(0, MAX_LINE_CHARS) + "..." : line);
            }
        }
        List<String> last = kept.subList(Math.max(0, kept.size() - maxLines), kept.size());
        return last.isEmpty() ? "(no output)" : String.join(" | ", last);
    }

    /**
     * The excerpt of the end of a log file; a missing or unreadable file gives a note saying
     * so, because this runs while reporting another failure and must not hide it.
     */
    public static String excerpt(Path logFile, int maxLines) {
        try (RandomAccessFile f = new RandomAccessFile(logFile.toFile(), "r")) {
            long start = Math.max(0, f.length() - MAX_TAIL_BYTES);
            byte[] buf = new byte[(int) (f.length() - start)];
            f.seek(start);
            f.readFully(buf);
            return excerpt(new String(buf, StandardCharsets.UTF_8), maxLines);
        } catch (IOException e) {
            return "(cannot read " + logFile + ": " + e.getMessage() + ")";
        }
    }
}
