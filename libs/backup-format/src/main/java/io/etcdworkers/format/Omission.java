package io.etcdworkers.format;

import io.etcdworkers.contract.ErrorCode;
import java.util.Optional;

/**
 * Revisions a {@code --to-last-good} rebuild left out, and why.
 *
 * @param object the snapshot object they are in; empty for revisions that no object holds (a gap)
 * @param firstRevision the first revision left out
 * @param lastRevision the last one
 * @param code what was wrong, when this object is the damaged one; empty for the objects that
 *     only follow it
 * @param reason one line for a person
 */
public record Omission(
        Optional<String> object, long firstRevision, long lastRevision, Optional<ErrorCode> code, String reason) {

    /** A damaged or inconsistent object, from {@code firstRevision} to its end. */
    public static Omission damaged(SnapshotObject object, long firstRevision, ErrorCode code, String reason) {
        return new Omission(
                Optional.of(object.key()), firstRevision, object.name().lastRevision(), Optional.of(code), reason);
    }

    /** An object left out only because one before it is damaged or missing. */
    public static Omission following(SnapshotObject object, String cause) {
        return new Omission(
                Optional.of(object.key()),
                object.name().startRevision(),
                object.name().lastRevision(),
                Optional.empty(),
                "after " + cause);
    }

    /** Revisions no snapshot holds: the chain breaks before {@code next}. */
    public static Omission gap(ChainProblem problem) {
        long first = problem.previous().name().lastRevision() + 1;
        long last = Math.max(first, problem.next().name().startRevision() - 1);
        return new Omission(
                Optional.empty(), first, last, Optional.of(ErrorCode.BACKUP_INCONSISTENT), problem.describe());
    }
}
