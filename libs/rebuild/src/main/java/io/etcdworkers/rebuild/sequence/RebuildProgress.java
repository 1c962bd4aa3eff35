package io.etcdworkers.rebuild.sequence;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs where a long rebuild stands every few seconds: deltas done of all, events applied, events
 * per second since the last line, the revision of all, an ETA from the revisions still to go, and
 * the engine's own figures. One line format for every engine; only the label differs.
 */
final class RebuildProgress {
    private static final Logger LOG = LoggerFactory.getLogger(RebuildProgress.class);

    private final String label;
    private final Clock clock;
    private final Duration every;
    private final int totalDeltas;
    private final long firstRevision;
    private final long lastRevision;
    private final Instant started;
    private Instant lastLog;
    private long lastEvents;

    RebuildProgress(String label, Clock clock, Duration every, int totalDeltas, long firstRevision, long lastRevision) {
        this.label = label;
        this.clock = clock;
        this.every = every;
        this.totalDeltas = totalDeltas;
        this.firstRevision = firstRevision;
        this.lastRevision = lastRevision;
        this.started = clock.instant();
        this.lastLog = started;
    }

    boolean due() {
        return Duration.between(lastLog, clock.instant()).compareTo(every) >= 0;
    }

    void log(int deltasDone, long events, long revision, String detail) {
        Instant now = clock.instant();
        double window = Math.max(0.001, Duration.between(lastLog, now).toMillis() / 1000.0);
        double elapsed = Math.max(0.001, Duration.between(started, now).toMillis() / 1000.0);
        long rate = Math.round((events - lastEvents) / window);
        double revisionsPerSecond = (revision - firstRevision) / elapsed;
        long eta = revisionsPerSecond <= 0 ? -1 : Math.round((lastRevision - revision) / revisionsPerSecond);
        LOG.info(
                "{} deltas={}/{} events={} eventsPerSecond={} revision={}/{} eta={} {}",
                label,
                deltasDone,
                totalDeltas,
                events,
                rate,
                revision,
                lastRevision,
                eta(eta),
                detail);
        lastLog = now;
        lastEvents = events;
    }

    static String eta(long seconds) {
        if (seconds < 0) {
            return "unknown";
        }
        return Duration.ofSeconds(seconds).toString().substring(2).toLowerCase(Locale.ROOT);
    }
}
