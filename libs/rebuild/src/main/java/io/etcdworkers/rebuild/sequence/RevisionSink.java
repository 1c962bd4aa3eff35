package io.etcdworkers.rebuild.sequence;

import io.etcdworkers.format.RevisionGroup;
import io.etcdworkers.rebuild.fetch.FetchedDelta;
import java.io.IOException;

/**
 * Where an engine's revisions go: a transaction into etcd (the replay) or the keyspace fold
 * (the offline engine). {@link RevisionPipeline} calls it in order and only with revisions the
 * {@link RevisionSequence} admitted.
 */
public interface RevisionSink {

    /** A delta starts; its summary (largest revision, events) is known. */
    default void deltaStarted(FetchedDelta delta) {}

    /** Applies one admitted revision; the state must then stand at {@code group.revision()}. */
    void apply(String objectName, RevisionGroup group) throws IOException;

    /** A whole delta was applied and checked; the state is at {@code revision}. */
    default void deltaDone(long revision) {}

    /** The engine's own figures for the progress line ({@code key=value ...}). */
    String progressDetail();
}
