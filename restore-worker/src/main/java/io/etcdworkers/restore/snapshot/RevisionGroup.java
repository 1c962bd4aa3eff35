package io.etcdworkers.restore.snapshot;

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

    /** Key and value bytes in the group: what one transaction carries. */
    public long payloadBytes() {
        long sum = 0;
        for (DeltaEvent e : events) {
            sum += e.payloadBytes();
        }
        return sum;
    }
}
