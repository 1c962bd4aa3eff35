package io.etcdworkers.restore.sequence;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.fetch.DeltaItem;
import io.etcdworkers.restore.fetch.DeltaStream;
import io.etcdworkers.restore.snapshot.RevisionGroup;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;

/**
 * The loop both engines run: take the deltas' items in order from a {@link DeltaStream}, let the
 * {@link RevisionSequence} admit each revision, hand it to the {@link RevisionSink}, check every
 * delta's end, log progress. What differs between the engines is the sink alone.
 */
public final class RevisionPipeline {
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
     * Applies every delta of {@code stream} on top of the state {@code sequence} starts at.
     *
     * @param totalDeltas how many deltas the stream holds (for progress)
     * @param lastRevision the revision the chain ends at (for progress)
     */
    public SequenceStats run(DeltaStream stream, RevisionSequence sequence, RevisionSink sink, int totalDeltas,
            long lastRevision) throws InterruptedException {
        RebuildProgress progress = new RebuildProgress(label, clock, progressEvery, totalDeltas, sequence.revision(),
                Math.max(lastRevision, sequence.revision()));
        int done = 0;
        String current = "";
        while (true) {
            DeltaItem item = stream.next();
            if (item instanceof DeltaItem.Group g) {
                apply(sequence, sink, current, g.group());
                stream.release(g);
            } else if (item instanceof DeltaItem.DeltaStart start) {
                current = start.delta().object().key();
                sink.deltaStarted(start.delta());
            } else if (item instanceof DeltaItem.DeltaEnd end) {
                sequence.checkDeltaEnd(current, end.delta().object().name().lastRevision());
                done++;
                sink.deltaDone(sequence.revision());
                if (progress.due()) {
                    progress.log(done, sequence.events(), sequence.revision(), sink.progressDetail());
                }
            } else {
                break;
            }
        }
        progress.log(done, sequence.events(), sequence.revision(), sink.progressDetail());
        return sequence.stats(done);
    }

    private static void apply(RevisionSequence sequence, RevisionSink sink, String objectName, RevisionGroup group) {
        if (!sequence.admit(objectName, group)) {
            return;
        }
        try {
            sink.apply(objectName, group);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "applying revision " + group.revision() + " of " + objectName
                    + " failed on the local disk: " + e.getMessage(), e);
        }
        sequence.applied(group);
    }
}
