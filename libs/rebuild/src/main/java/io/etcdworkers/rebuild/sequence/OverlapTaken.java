package io.etcdworkers.rebuild.sequence;

/**
 * Revisions two overlapping deltas both hold, with the same events, taken once.
 *
 * @param earlier the delta applied
 * @param later the delta whose first revisions were compared with it and skipped
 * @param firstRevision the first revision both hold
 * @param lastRevision the last one
 */
public record OverlapTaken(String earlier, String later, long firstRevision, long lastRevision) {}
