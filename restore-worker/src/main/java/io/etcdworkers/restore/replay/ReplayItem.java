package io.etcdworkers.restore.replay;

import io.etcdworkers.restore.snapshot.RevisionGroup;

/** What the decode stage hands the apply stage, in order. */
sealed interface ReplayItem {

    /** The start of a delta: its verification summary is known before any of its groups. */
    record DeltaStart(FetchedDelta delta) implements ReplayItem {}

    /** One revision of the current delta. */
    record Group(RevisionGroup group, long budgetBytes) implements ReplayItem {}

    /** All groups of the delta were handed over. */
    record DeltaEnd(FetchedDelta delta) implements ReplayItem {}

    /** The decode stage failed; the apply stage rethrows this. */
    record Failure(RuntimeException error) implements ReplayItem {}

    /** No more deltas. */
    record Done() implements ReplayItem {}
}
