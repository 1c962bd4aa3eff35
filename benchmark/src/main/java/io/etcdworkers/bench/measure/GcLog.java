package io.etcdworkers.bench.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The worker JVM's heap as its unified GC log ({@code -Xlog:gc:file=...:uptime}) reports it:
 * after each collection, the heap in use and the heap committed. The heap in use after a
 * collection is the live data, the figure that shows whether the heap grows with the deltas.
 */
public final class GcLog {
    private static final Pattern PAUSE = Pattern.compile("\\[(\\d+[.,]\\d+)s].*?(\\d+)M->(\\d+)M\\((\\d+)M\\)");

    /** One collection: when, live heap after it, committed heap, all in MiB. */
    public record Collection(double seconds, long beforeMb, long afterMb, long committedMb) {}

    private GcLog() {}

    public static List<Collection> read(Path file) throws IOException {
        List<Collection> found = new ArrayList<>();
        if (!Files.exists(file)) {
            return found;
        }
        for (String line : Files.readAllLines(file)) {
            Matcher m = PAUSE.matcher(line);
            if (m.find()) {
                found.add(new Collection(
                        Double.parseDouble(m.group(1).replace(',', '.')),
                        Long.parseLong(m.group(2)),
                        Long.parseLong(m.group(3)),
                        Long.parseLong(m.group(4))));
            }
        }
        return found;
    }
}
