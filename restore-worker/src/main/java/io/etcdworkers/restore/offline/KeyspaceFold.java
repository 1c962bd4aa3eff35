package io.etcdworkers.restore.offline;

import io.etcdworkers.restore.error.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.snapshot.DeltaEvent;
import io.etcdworkers.restore.snapshot.EventType;
import io.etcdworkers.restore.snapshot.RevisionGroup;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * Folds history into the final state of every key, the way etcd's MVCC store would apply it,
 * and at least as strictly as a replay: revisions must follow each other, a PUT must continue
 * the key's create revision and version, a DELETE must hit a live key. Anything else is a
 * backup that does not continue its base, refused with the object and revision named.
 */
final class KeyspaceFold {
    private final LiveKeys live;
    private long revision;
    private long baseRevision = -1;
    private long events;
    private long revisions;
    private long skippedEvents;
    private int largestGroupEvents;
    private long largestGroupBytes;

    KeyspaceFold(LiveKeys live) {
        this.live = live;
    }

    /** One entry of the base database's key bucket, in bucket (revision) order. */
    void baseEntry(BaseKeyEntry entry) throws IOException {
        if (baseRevision >= 0) {
            throw new IllegalStateException("base entries after the base was closed");
        }
        if (entry.tombstone()) {
            live.remove(entry.key());
        } else {
            live.put(entry.key(), entry.value(), entry.create(), entry.main(), entry.sub(), entry.version(),
                    entry.lease());
        }
        revision = Math.max(revision, entry.main());
    }

    /**
     * Ends the base: its revision is its newest entry's, or its compaction revision when that is
     * higher (etcd's rule when it opens a database whose newest entries were compacted away).
     */
    void endBase(long compactedRevision) {
        revision = Math.max(revision, compactedRevision);
        baseRevision = revision;
    }

    long baseRevision() {
        return baseRevision;
    }

    /** Applies one source revision; revisions already in the base are skipped. */
    void apply(String objectName, RevisionGroup group) throws IOException {
        long rev = group.revision();
        if (rev <= baseRevision) {
            skippedEvents += group.events().size();
            return;
        }
        if (rev != revision + 1) {
            throw new WorkerException(ErrorCode.BACKUP_INCONSISTENT, rev > revision
                    ? String.format("%s: next revision is %d but the state is at %d: revisions %d..%d are missing",
                            objectName, rev, revision, revision + 1, rev - 1)
                    : String.format("%s: revision %d is already applied (the state is at %d): deltas overlap",
                            objectName, rev, revision));
        }
        Set<String> seen = new HashSet<>();
        int sub = 0;
        for (DeltaEvent event : group.events()) {
            if (!seen.add(new String(event.key(), StandardCharsets.ISO_8859_1))) {
                throw new WorkerException(ErrorCode.CORRUPT_OBJECT, String.format("%s: revision %d names key %s twice",
                        objectName, rev, printable(event.key())));
            }
            if (event.type() == EventType.PUT) {
                put(objectName, event, sub);
            } else {
                delete(objectName, event);
            }
            sub++;
        }
        revision = rev;
        revisions++;
        events += group.events().size();
        largestGroupEvents = Math.max(largestGroupEvents, group.events().size());
        largestGroupBytes = Math.max(largestGroupBytes, group.payloadBytes());
    }

    private void put(String objectName, DeltaEvent event, int sub) throws IOException {
        LiveKey previous = live.get(event.key());
        long create = previous == null ? event.modRevision() : previous.create();
        long version = previous == null ? 1 : previous.version() + 1;
        if (event.createRevision() != create || event.version() != version) {
            throw new WorkerException(ErrorCode.BACKUP_INCONSISTENT, String.format(
                    "%s: revision %d puts key %s with create revision %d and version %d, but the restored state "
                            + "gives %d and %d: the delta does not continue its base",
                    objectName, event.modRevision(), printable(event.key()), event.createRevision(), event.version(),
                    create, version));
        }
        live.put(event.key(), event.value(), create, event.modRevision(), sub, version, event.lease());
    }

    private void delete(String objectName, DeltaEvent event) {
        if (live.remove(event.key()) == null) {
            throw new WorkerException(ErrorCode.BACKUP_INCONSISTENT, String.format(
                    "%s: revision %d deletes key %s, which does not exist in the restored state: the delta does "
                            + "not continue its base", objectName, event.modRevision(), printable(event.key())));
        }
    }

    /** Checks the state after a whole delta: its last revision, or the base's when it was all in the base. */
    void checkDeltaEnd(String objectName, long deltaLastRevision) {
        long expected = Math.max(deltaLastRevision, baseRevision);
        if (revision != expected) {
            throw new WorkerException(ErrorCode.BACKUP_INCONSISTENT, String.format(
                    "%s: after folding it the state is at revision %d but the delta ends at %d",
                    objectName, revision, expected));
        }
    }

    long revision() {
        return revision;
    }

    long events() {
        return events;
    }

    long revisions() {
        return revisions;
    }

    long skippedEvents() {
        return skippedEvents;
    }

    int largestGroupEvents() {
        return largestGroupEvents;
    }

    long largestGroupBytes() {
        return largestGroupBytes;
    }

    static String printable(byte[] key) {
        return new String(key, StandardCharsets.UTF_8);
    }
}
