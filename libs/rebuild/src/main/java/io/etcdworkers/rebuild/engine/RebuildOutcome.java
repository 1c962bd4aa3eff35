package io.etcdworkers.rebuild.engine;

import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.rebuild.verify.KeyspaceDigest;
import io.etcdworkers.rebuild.verify.KeyspaceRead;

/**
 * A rebuilt and verified database: what it was built from, by which engine, and what etcd serves.
 *
 * @param selection the base and deltas used
 * @param engine the engine that built it: {@link Engine#REPLAY} or {@link Engine#OFFLINE}
 * @param engineNote why the replay ran when the offline engine was asked first; empty otherwise
 * @param baseRevision the base database's revision
 * @param stats what the engine did
 * @param served the keyspace at the final revision, as the verifying etcd serves it, and what reading it cost
 */
public record RebuildOutcome(
        SnapshotSelection selection,
        Engine engine,
        String engineNote,
        long baseRevision,
        RebuildStats stats,
        KeyspaceRead served) {

    /** The keyspace the verifying etcd serves. */
    public KeyspaceDigest digest() {
        return served.digest();
    }

    public long finalRevision() {
        return digest().revision();
    }

    RebuildOutcome withNote(String note) {
        return new RebuildOutcome(selection, engine, note, baseRevision, stats, served);
    }
}
