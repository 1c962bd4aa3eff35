package io.etcdworkers.rebuild.sequence;

import java.util.List;

/**
 * What applying a chain of deltas did, counted the same way by every engine.
 *
 * @param deltas deltas applied whole (including those wholly inside the base)
 * @param revisions revisions applied
 * @param events events applied
 * @param skippedEvents events already in the base (first-delta overlap)
 * @param finalRevision the revision the state ended at
 * @param largestGroupEvents most events in one applied revision
 * @param largestGroupBytes most key+value bytes in one applied revision
 * @param reached where the revisions ended and why (a point in time, or damage left out)
 * @param overlaps revisions two overlapping deltas both held with the same events, taken once
 */
public record SequenceStats(
        int deltas,
        long revisions,
        long events,
        long skippedEvents,
        long finalRevision,
        int largestGroupEvents,
        long largestGroupBytes,
        PointReached reached,
        List<OverlapTaken> overlaps) {

    public SequenceStats {
        overlaps = List.copyOf(overlaps);
    }
}
