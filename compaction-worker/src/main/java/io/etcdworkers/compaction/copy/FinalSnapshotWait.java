package io.etcdworkers.compaction.copy;

import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.store.ObjectStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits, as etcdbrctl's {@code --wait-for-final-snapshot} does, until one of the source's 4 newest
 * full snapshots is a final one (its name ends in {@code .final}: the backup sidecar's last
 * snapshot before it stopped), looking every 15 seconds. A zero timeout waits until stopped. When
 * the time is up it returns {@code false} and the copy goes on anyway, as etcdbrctl's does.
 */
final class FinalSnapshotWait {
    static final Duration INTERVAL = Duration.ofSeconds(15);
    static final int NEWEST_FULL_SNAPSHOTS = 4;
    private static final Logger LOG = LoggerFactory.getLogger(FinalSnapshotWait.class);

    private final ObjectStore source;
    private final String prefix;
    private final Clock clock;
    private final Duration interval;

    FinalSnapshotWait(ObjectStore source, String prefix, Clock clock, Duration interval) {
        this.source = source;
        this.prefix = prefix;
        this.clock = clock;
        this.interval = interval;
    }

    /** @return whether a final full snapshot was found; false when the timeout ran out first */
    boolean await(Duration timeout) throws InterruptedException {
        Instant deadline = timeout.isZero() ? Instant.MAX : clock.instant().plus(timeout);
        while (true) {
            List<SnapshotObject> snapshots;
            try {
                snapshots = SnapshotCatalog.load(source, prefix).snapshots();
            } catch (WorkerException e) {
                throw new WorkerException(e.code(), "could not wait for the final full snapshot: " + e.getMessage(), e);
            }
            if (hasFinal(snapshots)) {
                LOG.info("copy: a final full snapshot is among the {} newest", NEWEST_FULL_SNAPSHOTS);
                return true;
            }
            Instant now = clock.instant();
            if (!now.isBefore(deadline)) {
                return false;
            }
            Duration left = Duration.between(now, deadline);
            Duration wait = left.compareTo(interval) < 0 ? left : interval;
            LOG.info(
                    "copy: no final full snapshot among the {} newest yet; looking again in {}s",
                    NEWEST_FULL_SNAPSHOTS,
                    wait.toSeconds());
            TimeUnit.MILLISECONDS.sleep(Math.max(1, wait.toMillis()));
        }
    }

    /** Whether one of the newest full snapshots (by last revision) is final. */
    static boolean hasFinal(List<SnapshotObject> ascending) {
        int seen = 0;
        for (int i = ascending.size() - 1; i >= 0 && seen < NEWEST_FULL_SNAPSHOTS; i--) {
            SnapshotObject snapshot = ascending.get(i);
            if (!snapshot.isFull() || SourceBackups.excluded(snapshot.info())) {
                continue;
            }
            if (snapshot.name().isFinal()) {
                return true;
            }
            seen++;
        }
        return false;
    }
}
