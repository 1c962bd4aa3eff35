package io.etcdworkers.rebuild.sequence;

import io.etcdworkers.format.Omission;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/**
 * Where a rebuild's revisions ended, and why there.
 *
 * @param revision the revision the state stands at
 * @param time when the backup sidecar received that revision; empty when no revision after the
 *     base was applied (the state is the base's)
 * @param end why the sequence ended there
 * @param next the first revision not applied, when the point asked for came before the chain's end
 * @param nextTime when that revision was received
 * @param omitted what a {@code --to-last-good} rebuild left out, in revision order
 */
public record PointReached(
        long revision,
        Optional<OffsetDateTime> time,
        End end,
        Optional<Long> next,
        Optional<OffsetDateTime> nextTime,
        List<Omission> omitted) {

    /** Why the revisions ended where they did. */
    public enum End {
        /** Every selected delta was applied. */
        CHAIN_END,
        /** The next revision lies past the revision or time asked for. */
        TARGET,
        /** The next delta is damaged, missing or inconsistent ({@code --to-last-good}). */
        DAMAGE
    }

    public PointReached {
        omitted = List.copyOf(omitted);
    }

    /** The state after every delta, nothing left out. */
    public static PointReached chainEnd(long revision, Optional<OffsetDateTime> time) {
        return new PointReached(revision, time, End.CHAIN_END, Optional.empty(), Optional.empty(), List.of());
    }
}
