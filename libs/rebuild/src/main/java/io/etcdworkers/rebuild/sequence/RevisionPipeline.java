package io.etcdworkers.rebuild.sequence;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.Omission;
import io.etcdworkers.format.RevisionGroup;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.format.StopAt;
import io.etcdworkers.rebuild.fetch.DeltaItem;
import io.etcdworkers.rebuild.fetch.DeltaStream;
import io.etcdworkers.rebuild.fetch.HeapExhausted;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loop both engines run: take the deltas' items in order from a {@link DeltaStream}, let the
 * {@link RevisionSequence} admit each revision, hand it to the {@link RevisionSink}, check every
 * delta's end, log progress. What differs between the engines is the sink alone.
 *
 * <p>It ends before the first revision past the selection's {@link StopAt}, and with {@code
 * --to-last-good} before the first delta that is damaged or does not continue the state (a
 * delta whose bytes fail to verify is left out whole: its failure is known before any of its
 * revisions is handed over; one that turns out inconsistent while applied keeps the revisions
 * before the inconsistency, each of which was whole and in order).
 */
public final class RevisionPipeline {
    /** What {@code --to-last-good} stops at instead of failing: findings about the backup's objects. */
    static final Set<ErrorCode> DAMAGE = EnumSet.of(
            ErrorCode.HASH_MISMATCH,
            ErrorCode.CORRUPT_OBJECT,
            ErrorCode.TRUNCATED_OBJECT,
            ErrorCode.BACKUP_INCONSISTENT,
            ErrorCode.UNSUPPORTED_OBJECT);

    private static final Logger LOG = LoggerFactory.getLogger(RevisionPipeline.class);

    private final String label;
    private final Clock clock;
    private final Duration progressEvery;

    /** @param label the progress line's first word(s): {@code replay} or {@code offline fold} */
    public RevisionPipeline(String label, Clock clock, Duration progressEvery) {
        this.label = label;
        this.clock = clock;
        this.progressEvery = progressEvery;
    }

    /**
     * Applies the deltas of {@code stream} (those of {@code selection}, in order) on top of the
     * state {@code sequence} starts at, up to the selection's point.
     *
     * @throws BaseBeyondTarget when the base already holds revisions past the one asked for
     */
    public SequenceStats run(
            DeltaStream stream, RevisionSequence sequence, RevisionSink sink, SnapshotSelection selection)
            throws InterruptedException {
        StopAt stopAt = selection.point().stopAt();
        if (stopAt instanceof StopAt.AtRevision r && sequence.baseRevision() > r.revision()) {
            throw new BaseBeyondTarget(selection.base(), sequence.baseRevision(), r.revision());
        }
        List<SnapshotObject> deltas = selection.deltas();
        RebuildProgress progress = new RebuildProgress(
                label,
                clock,
                progressEvery,
                deltas.size(),
                sequence.revision(),
                Math.max(selection.targetRevision(), sequence.revision()));
        int done = 0;
        SnapshotObject current = null;
        PointReached stopped = null;
        while (stopped == null) {
            DeltaItem item;
            try {
                item = stream.next();
            } catch (WorkerException e) {
                if (current == null && done >= deltas.size()) {
                    throw e;
                }
                stopped = damaged(selection, sequence, current != null ? current : deltas.get(done), e);
                continue;
            }
            if (item instanceof DeltaItem.Group g) {
                RevisionGroup group = g.group();
                if (group.revision() > sequence.baseRevision() && stopAt.beyond(group)) {
                    stopped = new PointReached(
                            sequence.revision(),
                            sequence.lastTime(),
                            PointReached.End.TARGET,
                            Optional.of(group.revision()),
                            Optional.of(group.time()),
                            List.of());
                } else {
                    boolean admitted = false;
                    try {
                        admitted = sequence.admit(current.key(), group);
                    } catch (WorkerException e) {
                        stopped = damaged(selection, sequence, current, e);
                    }
                    if (admitted) {
                        apply(sequence, sink, current.key(), group);
                    }
                }
                stream.release(g);
            } else if (item instanceof DeltaItem.DeltaStart start) {
                current = start.delta().object();
                expectOverlap(sequence, selection, current, done);
                sink.deltaStarted(start.delta());
            } else if (item instanceof DeltaItem.DeltaEnd end) {
                try {
                    sequence.checkDeltaEnd(current.key(), current.name().lastRevision());
                } catch (WorkerException e) {
                    stopped = damaged(selection, sequence, current, e);
                    continue;
                }
                current = null;
                done++;
                sink.deltaDone(sequence.revision());
                if (progress.due()) {
                    progress.log(done, sequence.events(), sequence.revision(), sink.progressDetail());
                }
            } else {
                stopped = new PointReached(
                        sequence.revision(),
                        sequence.lastTime(),
                        selection.omitted().isEmpty() ? PointReached.End.CHAIN_END : PointReached.End.DAMAGE,
                        Optional.empty(),
                        Optional.empty(),
                        selection.omitted());
            }
        }
        progress.log(done, sequence.events(), sequence.revision(), sink.progressDetail());
        if (stopped.end() != PointReached.End.CHAIN_END) {
            LOG.warn(
                    "{} stopped at revision {} ({}): {} of {} deltas applied whole, {} object(s) or range(s) left out",
                    label,
                    stopped.revision(),
                    stopped.end() == PointReached.End.TARGET ? stopAt.describe() : "damage, --to-last-good",
                    done,
                    deltas.size(),
                    stopped.omitted().size());
        }
        return sequence.stats(done, stopped);
    }

    /** When the delta after {@code current} starts inside it, the sequence compares the two where they overlap. */
    private static void expectOverlap(
            RevisionSequence sequence, SnapshotSelection selection, SnapshotObject current, int index) {
        List<SnapshotObject> deltas = selection.deltas();
        if (index + 1 >= deltas.size()) {
            return;
        }
        SnapshotObject next = deltas.get(index + 1);
        boolean checked = selection.overlaps().stream()
                .anyMatch(o -> o.previous().equals(current) && o.next().equals(next));
        if (checked) {
            sequence.expectOverlap(
                    current.key(),
                    next.key(),
                    next.name().startRevision(),
                    current.name().lastRevision());
        }
    }

    /**
     * With {@code --to-last-good}, a finding about {@code bad} ends the sequence at the state
     * reached so far; anything else (and any failure without the flag) is thrown on.
     */
    private static PointReached damaged(
            SnapshotSelection selection, RevisionSequence sequence, SnapshotObject bad, WorkerException e) {
        if (!DAMAGE.contains(e.code())) {
            throw e;
        }
        if (!selection.point().lastGood()) {
            throw withLastGood(e, bad, sequence.revision());
        }
        LOG.error(
                "--to-last-good: leaving out {} from revision {} on: {} ({})",
                bad.key(),
                sequence.revision() + 1,
                e.getMessage(),
                e.code());
        List<Omission> omitted = new ArrayList<>();
        omitted.add(Omission.damaged(bad, sequence.revision() + 1, e.code(), e.getMessage()));
        List<SnapshotObject> deltas = selection.deltas();
        for (SnapshotObject later : deltas.subList(deltas.indexOf(bad) + 1, deltas.size())) {
            omitted.add(Omission.following(later, bad.key()));
        }
        omitted.addAll(selection.omitted());
        return new PointReached(
                sequence.revision(),
                sequence.lastTime(),
                PointReached.End.DAMAGE,
                Optional.empty(),
                Optional.empty(),
                omitted);
    }

    /**
     * The failure, saying how far {@code --to-last-good} reaches: an object cut short or damaged in
     * the store stays so, and running again ends the same way.
     */
    private static WorkerException withLastGood(WorkerException e, SnapshotObject bad, long lastGood) {
        String again = e.code() == ErrorCode.TRUNCATED_OBJECT
                ? "if a second run fails the same way the object is cut short in the store, not in transit: "
                : "";
        return new WorkerException(
                e.code(),
                e.getMessage() + "; " + again + "restore --to-last-good reaches revision " + lastGood
                        + ", the last good one before " + bad.key() + " (verify-backup lists every bad object)",
                e);
    }

    private static void apply(RevisionSequence sequence, RevisionSink sink, String objectName, RevisionGroup group) {
        try {
            sink.apply(objectName, group);
        } catch (OutOfMemoryError e) {
            throw HeapExhausted.whileApplying(objectName, group.revision(), e);
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "applying revision " + group.revision() + " of " + objectName + " failed on the local disk: "
                            + e.getMessage(),
                    e);
        }
        sequence.applied(group);
    }
}
