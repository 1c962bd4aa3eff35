package io.etcdworkers.restore.replay;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs where a long replay stands every few seconds: deltas done of all, events applied,
 * events per second, an ETA from the revisions still to go, and the database size.
 */
final class ReplayProgress {
    private static final Logger LOG = LoggerFactory.getLogger(ReplayProgress.class);

    private final Clock clock;
    private final Duration every;
    private final int totalDeltas;
    private final long firstRevision;
    private final long lastRevision;
    private final Instant started;
    private Instant lastLog;
    private long lastEvents;

    ReplayProgress(Clock clock, Duration every, int totalDeltas, long firstRevision, long lastRevision) {
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

    void log(int deltasDone, long events, long revision, long dbSize, long dbInUse, DefragStats defrag) {
        Instant now = clock.instant();
        double window = Math.max(0.001, Duration.between(lastLog, now).toMillis() / 1000.0);
        double elapsed = Math.max(0.001, Duration.between(started, now).toMillis() / 1000.0);
        long rate = Math.round((events - lastEvents) / window);
        double revisionsPerSecond = (revision - firstRevision) / elapsed;
        long eta = revisionsPerSecond <= 0 ? -1 : Math.round((lastRevision - revision) / revisionsPerSecond);
        LOG.info("replay deltas={}/{} events={} eventsPerSecond={} revision={}/{} eta={} dbSize={} dbInUse={} "
                        + "defrags={} lastDefrag={}", deltasDone, totalDeltas, events, rate, revision, lastRevision,
                eta < 0 ? "unknown" : Duration.ofSeconds(eta).toString().substring(2).toLowerCase(java.util.Locale.ROOT),
                dbSize, dbInUse, defrag.count(), defrag.lastTrigger());
        lastLog = now;
        lastEvents = events;
    }
}
