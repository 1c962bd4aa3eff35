package io.etcdworkers.rebuild.fetch;

import io.etcdworkers.format.RevisionGroup;

/** What a {@link DeltaStream} hands its consumer, in order: per delta a start, its groups, an end; then done. */
public sealed interface DeltaItem {

    /** The start of a delta: its verification summary is known before any of its groups. */
    record DeltaStart(FetchedDelta delta) implements DeltaItem {}

    /**
     * One revision of the current delta.
     *
     * @param budgetUnits what the group holds of the stream's memory budget, given back by {@link
     *     DeltaStream#release}
     */
    record Group(RevisionGroup group, int budgetUnits) implements DeltaItem {}

    /** All groups of the delta were handed over. */
    record DeltaEnd(FetchedDelta delta) implements DeltaItem {}

    /** No more deltas. */
    record Done() implements DeltaItem {}
}
