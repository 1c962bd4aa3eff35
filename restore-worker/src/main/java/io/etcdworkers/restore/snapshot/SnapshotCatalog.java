package io.etcdworkers.restore.snapshot;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.store.ObjectInfo;
import io.etcdworkers.restore.store.ObjectStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshots under one store prefix, sorted as etcd-backup-restore sorts them, and the
 * selection a restore makes from them.
 *
 * <p>Lists {@code <prefix>/} (with a trailing slash, so a sibling prefix such as
 * {@code <prefix>-other/} never mixes in: etcd-backup-restore lists the bare prefix). Chunk
 * objects are ignored; keys that are not snapshot names are skipped with a warning.
 */
public final class SnapshotCatalog {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotCatalog.class);

    /**
     * Ascending by last revision, then creation time; a delta before a full snapshot with the
     * same last revision and time (so the full one becomes the base); then by key, so the order
     * never depends on the listing.
     */
    static final Comparator<SnapshotObject> ORDER = Comparator
            .comparingLong((SnapshotObject s) -> s.name().lastRevision())
            .thenComparing(s -> s.name().createdAt())
            .thenComparing(s -> s.isFull() ? 1 : 0)
            .thenComparing(SnapshotObject::key);

    private final String describe;
    private final List<SnapshotObject> snapshots;
    private final List<SnapshotKey.Invalid> skipped;

    SnapshotCatalog(String describe, List<SnapshotObject> snapshots, List<SnapshotKey.Invalid> skipped) {
        this.describe = describe;
        this.snapshots = snapshots.stream().sorted(ORDER).toList();
        this.skipped = List.copyOf(skipped);
    }

    /** Lists the store under {@code prefix} (empty for the whole container). */
    public static SnapshotCatalog load(ObjectStore store, String prefix) {
        String base = normalizePrefix(prefix);
        List<SnapshotObject> found = new ArrayList<>();
        List<SnapshotKey.Invalid> skipped = new ArrayList<>();
        for (ObjectInfo info : store.list(base)) {
            SnapshotKey.Parsed parsed = SnapshotKey.parse(info.key(), info.key().substring(base.length()));
            if (parsed instanceof SnapshotKey.Snapshot snapshot) {
                found.add(new SnapshotObject(info, snapshot.name()));
            } else if (parsed instanceof SnapshotKey.Invalid invalid) {
                LOG.warn("skipping object that is not a snapshot: key={} reason={}", invalid.key(), invalid.reason());
                skipped.add(invalid);
            }
        }
        String where = store.describe() + " under prefix \"" + base + "\"";
        return new SnapshotCatalog(where, found, skipped);
    }

    /** {@code ""} for the whole container, else the prefix with exactly one trailing slash. */
    public static String normalizePrefix(String prefix) {
        String p = prefix == null ? "" : prefix.strip();
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        while (p.startsWith("/")) {
            p = p.substring(1);
        }
        return p.isEmpty() ? "" : p + "/";
    }

    /** All snapshots, in restore order. */
    public List<SnapshotObject> snapshots() {
        return snapshots;
    }

    /** Keys that were not snapshot names (chunks excluded). */
    public List<SnapshotKey.Invalid> skipped() {
        return skipped;
    }

    /** The store and prefix, for messages. */
    public String describe() {
        return describe;
    }

    /**
     * The latest full snapshot and the deltas after it.
     *
     * @throws WorkerException {@link ErrorCode#NO_SNAPSHOTS} when there is no full snapshot:
     *     a restore that "succeeds" with nothing restored would lose data silently
     */
    public SnapshotSelection select() {
        List<SnapshotObject> deltas = new ArrayList<>();
        for (int i = snapshots.size() - 1; i >= 0; i--) {
            SnapshotObject snapshot = snapshots.get(i);
            if (snapshot.isFull()) {
                Collections.reverse(deltas);
                return new SnapshotSelection(snapshot, deltas);
            }
            deltas.add(snapshot);
        }
        String what = snapshots.isEmpty() ? "no snapshots" : "no full snapshot (only " + snapshots.size() + " deltas)";
        throw new WorkerException(ErrorCode.NO_SNAPSHOTS, "nothing to restore from: " + what + " in " + describe);
    }
}
