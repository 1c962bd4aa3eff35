package io.etcdworkers.rebuild.sequence;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.DeltaEvent;
import io.etcdworkers.format.RevisionGroup;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The chain rules every engine applies revisions by, and their counters: revisions at or below
 * the base database's are skipped (the first delta may overlap the base); above it they must
 * follow each other without a gap or an overlap; one revision never names a key twice; after a
 * whole delta the state stands at the delta's last revision. Two deltas that overlap (the later
 * starting inside the earlier, see {@link #expectOverlap}) are taken once where they hold the
 * same events, refused where they differ. Anything else is a backup that does
 * not continue its base, refused with the object and the revisions named.
 */
public final class RevisionSequence {
    private final long baseRevision;
    private long revision;
    private long revisions;
    private long events;
    private long skippedEvents;
    private int largestGroupEvents;
    private long largestGroupBytes;
    private OffsetDateTime lastTime;
    private DeltaOverlap overlap;
    private final List<OverlapTaken> overlaps = new ArrayList<>();

    public RevisionSequence(long baseRevision) {
        this.baseRevision = baseRevision;
        this.revision = baseRevision;
    }

    /**
     * Checks that {@code group} may be applied next.
     *
     * @return false when the base already holds it (counted as skipped): do not apply it
     */
    public boolean admit(String objectName, RevisionGroup group) {
        long rev = group.revision();
        if (rev <= baseRevision) {
            skippedEvents += group.events().size();
            return false;
        }
        if (overlap != null && overlap.compares(objectName, rev)) {
            overlap.compare(group);
            skippedEvents += group.events().size();
            if (overlap.complete()) {
                overlaps.add(overlap.taken());
                overlap = null;
            }
            return false;
        }
        if (rev != revision + 1) {
            throw new WorkerException(
                    ErrorCode.BACKUP_INCONSISTENT,
                    rev > revision
                            ? String.format(
                                    "%s: next revision is %d but the restored state is at %d: revisions %d..%d are "
                                            + "missing",
                                    objectName, rev, revision, revision + 1, rev - 1)
                            : String.format(
                                    "%s: revision %d is already applied (the restored state is at %d): deltas overlap",
                                    objectName, rev, revision));
        }
        requireDistinctKeys(objectName, group);
        if (overlap != null && overlap.records(objectName, rev)) {
            overlap.record(group);
        }
        return true;
    }

    /**
     * The delta {@code later} starts at {@code first}, inside {@code earlier} (which ends at {@code
     * last}): remember {@code earlier}'s revisions from {@code first} on, and take {@code later}'s
     * up to {@code last} only when they hold the same events (see {@link DeltaOverlap}).
     */
    public void expectOverlap(String earlier, String later, long first, long last) {
        overlap = new DeltaOverlap(earlier, later, first, last);
    }

    /** The overlaps whose revisions held the same events in both deltas, taken once. */
    public List<OverlapTaken> overlaps() {
        return List.copyOf(overlaps);
    }

    /** Records that an admitted group was applied: the state is now at its revision. */
    public void applied(RevisionGroup group) {
        revision = group.revision();
        revisions++;
        events += group.events().size();
        largestGroupEvents = Math.max(largestGroupEvents, group.events().size());
        largestGroupBytes = Math.max(largestGroupBytes, group.payloadBytes());
        lastTime = group.time();
    }

    /** Checks the state after a whole delta: at its last revision, or the base's when it was all in the base. */
    public void checkDeltaEnd(String objectName, long deltaLastRevision) {
        long expected = Math.max(deltaLastRevision, baseRevision);
        if (revision != expected) {
            throw new WorkerException(
                    ErrorCode.BACKUP_INCONSISTENT,
                    String.format(
                            "%s: after applying it the restored state is at revision %d but the delta ends at %d",
                            objectName, revision, expected));
        }
    }

    /** etcd refuses a txn naming a key twice, and the source never writes one: the delta is bad. */
    private static void requireDistinctKeys(String objectName, RevisionGroup group) {
        if (group.events().size() < 2) {
            return;
        }
        Set<String> seen = new HashSet<>();
        for (DeltaEvent event : group.events()) {
            if (!seen.add(new String(event.key(), StandardCharsets.ISO_8859_1))) {
                throw new WorkerException(
                        ErrorCode.CORRUPT_OBJECT,
                        String.format(
                                "%s: revision %d names key %s twice",
                                objectName, group.revision(), new String(event.key(), StandardCharsets.UTF_8)));
            }
        }
    }

    public long baseRevision() {
        return baseRevision;
    }

    /** The revision the state stands at. */
    public long revision() {
        return revision;
    }

    public long events() {
        return events;
    }

    /** When the sidecar received the last applied revision; empty while none was applied. */
    public Optional<OffsetDateTime> lastTime() {
        return Optional.ofNullable(lastTime);
    }

    /** What the sequence counted after {@code deltas} whole deltas, every one of them applied. */
    public SequenceStats stats(int deltas) {
        return stats(deltas, PointReached.chainEnd(revision, lastTime()));
    }

    /** What the sequence counted, ending at {@code reached}. */
    public SequenceStats stats(int deltas, PointReached reached) {
        return new SequenceStats(
                deltas,
                revisions,
                events,
                skippedEvents,
                revision,
                largestGroupEvents,
                largestGroupBytes,
                reached,
                overlaps());
    }
}
