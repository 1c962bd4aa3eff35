package io.etcdworkers.format;

/**
 * A break in the chain base -> deltas: the next snapshot does not start right after the
 * previous one ends.
 *
 * @param previous the snapshot before the break
 * @param next the snapshot after it
 */
public record ChainProblem(SnapshotObject previous, SnapshotObject next) {

    /** Revisions between the two that no snapshot holds (0 for an overlap). */
    public long missingRevisions() {
        return Math.max(0, next.name().startRevision() - previous.name().lastRevision() - 1);
    }

    public boolean isGap() {
        return missingRevisions() > 0;
    }

    /** One line for a person: what is missing or doubled, between which objects. */
    public String describe() {
        long expected = previous.name().lastRevision() + 1;
        if (isGap()) {
            return String.format(
                    "gap: revisions %d..%d are in no snapshot (after %s, next is %s)",
                    expected, next.name().startRevision() - 1, previous.key(), next.key());
        }
        return String.format(
                "overlap: %s starts at revision %d but %s already ends at %d (expected start %d)",
                next.key(),
                next.name().startRevision(),
                previous.key(),
                previous.name().lastRevision(),
                expected);
    }
}
