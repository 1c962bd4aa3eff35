package io.etcdworkers.format;

import java.time.OffsetDateTime;
import java.util.List;

/**
 * The events of one source revision, in file order: replayed as one etcd transaction so the
 * revision numbers of the source are reproduced exactly.
 */
public record RevisionGroup(long revision, List<DeltaEvent> events) {
    public RevisionGroup {
        events = List.copyOf(events);
        if (events.isEmpty()) {
            throw new IllegalArgumentException("empty revision group " + revision);
        }
    }

    /**
     * When the backup sidecar received this revision: the latest of its events' times (they
     * arrive in one watch response, so they are normally all the same).
     */
    public OffsetDateTime time() {
        OffsetDateTime latest = events.get(0).time();
        for (int i = 1; i < events.size(); i++) {
            OffsetDateTime t = events.get(i).time();
            if (t.isAfter(latest)) {
                latest = t;
            }
        }
        return latest;
    }

    /** Key and value bytes in the group: what one transaction carries. */
    public long payloadBytes() {
        long sum = 0;
        for (DeltaEvent e : events) {
            sum += e.payloadBytes();
        }
        return sum;
    }
}
