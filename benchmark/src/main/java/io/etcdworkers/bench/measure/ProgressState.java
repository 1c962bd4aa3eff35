package io.etcdworkers.bench.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The latest replay progress the worker logged on stderr, and the defragmentations it logged,
 * parsed from its log lines ({@code replay deltas=.. events=.. eventsPerSecond=.. revision=..
 * dbSize=.. dbInUse=.. defrags=..} and {@code compacted and defragmented ... ms=..}).
 * Written by the stderr reader thread, read by the sampler: all access is synchronized.
 */
public final class ProgressState {
    private static final Pattern PROGRESS = Pattern.compile(
            "replay deltas=(\\d+)/(\\d+) events=(\\d+) eventsPerSecond=(\\d+) revision=(\\d+)/(\\d+) .*?"
                    + "dbSize=(\\d+) dbInUse=(\\d+) defrags=(\\d+)");
    private static final Pattern DEFRAG = Pattern.compile(
            "compacted and defragmented trigger=(\\S+) revision=(\\d+) dbSizeBefore=(\\d+) inUseBefore=(\\d+) "
                    + "dbSizeAfter=(\\d+) inUseAfter=(\\d+) ms=(\\d+)");

    /** One defragmentation as logged, with the benchmark's time of the line. */
    public record Defrag(
            double atSeconds, String trigger, long revision, long dbSizeBefore, long dbSizeAfter, long ms) {}

    private long events;
    private long eventsPerSecond;
    private long dbSize;
    private long dbInUse;
    private long defrags;
    private final List<Defrag> defragLog = new ArrayList<>();

    /** Takes one stderr line; lines that are neither kind are ignored. */
    public synchronized void accept(String line, double atSeconds) {
        Matcher m = PROGRESS.matcher(line);
        if (m.find()) {
            events = Long.parseLong(m.group(3));
            eventsPerSecond = Long.parseLong(m.group(4));
            dbSize = Long.parseLong(m.group(7));
            dbInUse = Long.parseLong(m.group(8));
            defrags = Long.parseLong(m.group(9));
            return;
        }
        Matcher d = DEFRAG.matcher(line);
        if (d.find()) {
            defragLog.add(new Defrag(
                    atSeconds,
                    d.group(1),
                    Long.parseLong(d.group(2)),
                    Long.parseLong(d.group(3)),
                    Long.parseLong(d.group(5)),
                    Long.parseLong(d.group(7))));
        }
    }

    public synchronized long events() {
        return events;
    }

    public synchronized long eventsPerSecond() {
        return eventsPerSecond;
    }

    public synchronized long dbSize() {
        return dbSize;
    }

    public synchronized long dbInUse() {
        return dbInUse;
    }

    public synchronized long defrags() {
        return defrags;
    }

    public synchronized List<Defrag> defragLog() {
        return List.copyOf(defragLog);
    }
}
