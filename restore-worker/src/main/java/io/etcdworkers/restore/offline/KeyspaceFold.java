package io.etcdworkers.restore.offline;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.engine.KeyPrefix;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.sequence.RevisionSink;
import io.etcdworkers.restore.snapshot.DeltaEvent;
import io.etcdworkers.restore.snapshot.EventType;
import io.etcdworkers.restore.snapshot.RevisionGroup;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The offline engine's sink: folds history into the final state of every key, the way etcd's
 * MVCC store would apply it, and at least as strictly as a replay: a PUT must continue the key's
 * create revision and version, a DELETE must hit a live key. Anything else is a backup that does
 * not continue its base, refused with the object and revision named. The order of revisions is
 * the {@link io.etcdworkers.restore.sequence.RevisionSequence}'s to check.
 */
final class KeyspaceFold implements RevisionSink {
    private final LiveKeys live;
    private final KeyPrefix keys;
    private long baseMaxRevision;
    private long baseRevision = -1;

    KeyspaceFold(LiveKeys live) {
        this(live, KeyPrefix.ALL);
    }

    /** A fold that keeps only the keys under {@code keys}; the others are skipped (their revisions still count). */
    KeyspaceFold(LiveKeys live, KeyPrefix keys) {
        this.live = live;
        this.keys = keys;
    }

    /** One entry of the base database's key bucket, in bucket (revision) order. */
    void baseEntry(BaseKeyEntry entry) throws IOException {
        if (baseRevision >= 0) {
            throw new IllegalStateException("base entries after the base was closed");
        }
        baseMaxRevision = Math.max(baseMaxRevision, entry.main());
        if (!keys.matches(entry.key())) {
            return;
        }
        if (entry.tombstone()) {
            live.remove(entry.key());
        } else {
            live.put(entry.key(), entry.value(), entry.create(), entry.main(), entry.sub(), entry.version(),
                    entry.lease());
        }
    }

    /**
     * Ends the base: its revision is its newest entry's, or its compaction revision when that is
     * higher (etcd's rule when it opens a database whose newest entries were compacted away).
     */
    void endBase(long compactedRevision) {
        baseRevision = Math.max(baseMaxRevision, compactedRevision);
    }

    long baseRevision() {
        return baseRevision;
    }

    /** Applies one admitted revision, its events in group order as sub revisions. */
    @Override
    public void apply(String objectName, RevisionGroup group) throws IOException {
        if (baseRevision < 0) {
            throw new IllegalStateException("revisions before the base was closed");
        }
        int sub = 0;
        for (DeltaEvent event : group.events()) {
            if (!keys.matches(event.key())) {
                sub++;
                continue;
            }
            if (event.type() == EventType.PUT) {
                put(objectName, event, sub);
            } else {
                delete(objectName, event);
            }
            sub++;
        }
    }

    @Override
    public String progressDetail() {
        return "liveKeys=" + live.size() + " liveValueBytes=" + live.liveValueBytes();
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

    static String printable(byte[] key) {
        return new String(key, StandardCharsets.UTF_8);
    }
}
