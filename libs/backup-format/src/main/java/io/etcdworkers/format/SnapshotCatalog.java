package io.etcdworkers.format;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
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
    static final Comparator<SnapshotObject> ORDER = Comparator.comparingLong(
                    (SnapshotObject s) -> s.name().lastRevision())
            .thenComparing(s -> s.name().createdAt())
            .thenComparing(s -> s.isFull() ? 1 : 0)
            .thenComparing(SnapshotObject::key);

    private final String describe;
    private final List<SnapshotObject> snapshots;
    private final List<SnapshotKey.Invalid> skipped;
    private final List<SnapshotObject> excluded;
    private final String hint;

    SnapshotCatalog(String describe, List<SnapshotObject> snapshots, List<SnapshotKey.Invalid> skipped) {
        this(describe, snapshots, skipped, List.of(), "");
    }

    private SnapshotCatalog(
            String describe,
            List<SnapshotObject> snapshots,
            List<SnapshotKey.Invalid> skipped,
            List<SnapshotObject> excluded,
            String hint) {
        this.describe = describe;
        this.snapshots = snapshots.stream().sorted(ORDER).toList();
        this.skipped = List.copyOf(skipped);
        this.excluded = excluded.stream().sorted(ORDER).toList();
        this.hint = hint;
    }

    /** Lists the store under {@code prefix} (empty for the whole container). */
    public static SnapshotCatalog load(ObjectStore store, String prefix) {
        String base = normalizePrefix(prefix);
        List<SnapshotObject> found = new ArrayList<>();
        List<SnapshotObject> excluded = new ArrayList<>();
        List<SnapshotKey.Invalid> skipped = new ArrayList<>();
        List<String> outside = new ArrayList<>();
        for (ObjectInfo info : store.list(base)) {
            String relative = info.key().substring(base.length());
            SnapshotKey.Parsed parsed = SnapshotKey.parse(info.key(), relative);
            if (parsed instanceof SnapshotKey.Snapshot snapshot
                    && info.excludedBy().isPresent()) {
                // etcdbrctl leaves such a snapshot out of restores, compactions and copies: so does this
                LOG.info(
                        "skipping a snapshot marked to be excluded: key={} mark=\"{}\"",
                        info.key(),
                        info.excludedBy().get());
                excluded.add(new SnapshotObject(info, snapshot.name()));
            } else if (parsed instanceof SnapshotKey.Snapshot snapshot) {
                found.add(new SnapshotObject(info, snapshot.name()));
            } else if (parsed instanceof SnapshotKey.Invalid invalid) {
                if (relative.startsWith("v1/") || relative.startsWith("v2/")) {
                    LOG.warn(
                            "skipping object that is not a snapshot: key={} reason={}",
                            invalid.key(),
                            invalid.reason());
                } else {
                    outside.add(invalid.key()); // a whole other tree can lie here: one line for all of it
                }
                skipped.add(invalid);
            }
        }
        if (!outside.isEmpty()) {
            LOG.warn(
                    "skipping {} object(s) not under a v1/ or v2/ folder of prefix \"{}\", e.g. key={}",
                    outside.size(),
                    base,
                    outside.get(0));
        }
        String where = store.describe() + " under prefix \"" + base + "\"";
        String hint = found.stream().anyMatch(SnapshotObject::isFull)
                ? ""
                : PrefixHint.find(store, base, outside).orElse("");
        return new SnapshotCatalog(where, found, skipped, excluded, hint);
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

    /**
     * Snapshots the store marks to be excluded (etcd-backup-restore's {@code x-etcd-snapshot-exclude=true},
     * where the store keeps it: see {@link ObjectInfo#excludedBy()}), in restore order: never a base
     * or a delta of a selection.
     */
    public List<SnapshotObject> excluded() {
        return excluded;
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
        return select(RestorePoint.LATEST);
    }

    /**
     * The full snapshot and deltas a rebuild to {@code point} uses: the latest full snapshot at or
     * before the point (by its name's revision, or its creation time for a time), then the deltas
     * after it that the point needs. For a time, that is every delta made at or before it and the
     * first one made after it (its first events may still be before the time: a delta is named
     * when it is written, after its events).
     *
     * @throws WorkerException {@link ErrorCode#NO_SNAPSHOTS} when there is no full snapshot;
     *     {@link ErrorCode#USAGE} when the point is outside what the snapshots cover (the message
     *     names what they cover)
     */
    public SnapshotSelection select(RestorePoint point) {
        return selectBelow(point, snapshots.size());
    }

    /**
     * The selection from the latest full snapshot before {@code base} (for a point that turned
     * out to be inside {@code base}'s database); empty when there is none.
     */
    public Optional<SnapshotSelection> selectBefore(RestorePoint point, SnapshotObject base) {
        int index = snapshots.indexOf(base);
        for (int i = index - 1; i >= 0; i--) {
            if (snapshots.get(i).isFull()) {
                return Optional.of(selectBelow(point, i + 1));
            }
        }
        return Optional.empty();
    }

    /**
     * The selections to {@code point} from each full snapshot older than {@code base}, newest
     * first: where a rebuild goes on when {@code base} turns out to be damaged. A full snapshot
     * whose chain cannot reach the point at all (the revision falls in no snapshot) is left out;
     * the chains are not checked for gaps here.
     */
    public List<SnapshotSelection> olderChains(RestorePoint point, SnapshotObject base) {
        List<SnapshotSelection> chains = new ArrayList<>();
        for (int i = snapshots.indexOf(base) - 1; i >= 0; i--) {
            if (snapshots.get(i).isFull()) {
                try {
                    SnapshotSelection chain = selectBelow(point, i + 1);
                    if (chain.base().equals(snapshots.get(i))) {
                        chains.add(chain);
                    }
                } catch (WorkerException e) {
                    LOG.debug(
                            "no chain to {} from {}: {}", point.stopAt().describe(), snapshots.get(i), e.getMessage());
                }
            }
        }
        return chains;
    }

    private SnapshotSelection selectBelow(RestorePoint point, int end) {
        StopAt stopAt = point.stopAt();
        int baseIndex = -1;
        for (int i = end - 1; i >= 0; i--) {
            if (snapshots.get(i).isFull() && startsBefore(snapshots.get(i), stopAt)) {
                baseIndex = i;
                break;
            }
        }
        if (baseIndex < 0) {
            throw noBase(stopAt);
        }
        requireCovered(stopAt);
        List<SnapshotObject> deltas = new ArrayList<>();
        for (SnapshotObject s : snapshots.subList(baseIndex + 1, snapshots.size())) {
            if (s.isFull()) {
                continue;
            }
            if (stopAt instanceof StopAt.AtRevision r && s.name().startRevision() > r.revision()) {
                break;
            }
            deltas.add(s);
            if (stopAt instanceof StopAt.AtTime t && s.name().createdAt().isAfter(t.time())) {
                break;
            }
        }
        SnapshotSelection selection =
                new SnapshotSelection(snapshots.get(baseIndex), deltas, point, List.of(), List.of(), excluded);
        if (stopAt instanceof StopAt.AtRevision r && selection.lastRevision() < r.revision()) {
            // the revision fell between the end of this chain and the next snapshot: no object holds it
            SnapshotObject next = snapshots.stream()
                    .filter(o -> o.name().lastRevision() > r.revision())
                    .findFirst()
                    .orElseThrow();
            throw new WorkerException(
                    ErrorCode.USAGE,
                    String.format(
                            "revision %d is in no snapshot: the chain from %s "
                                    + "ends at revision %d and the next snapshot, %s, holds revisions %d..%d",
                            r.revision(),
                            selection.base().key(),
                            selection.lastRevision(),
                            next.key(),
                            next.isFull()
                                    ? next.name().lastRevision()
                                    : next.name().startRevision(),
                            next.name().lastRevision()));
        }
        return selection;
    }

    private static boolean startsBefore(SnapshotObject full, StopAt stopAt) {
        if (stopAt instanceof StopAt.AtRevision r) {
            return full.name().lastRevision() <= r.revision();
        }
        if (stopAt instanceof StopAt.AtTime t) {
            return !full.name().createdAt().isAfter(t.time());
        }
        return true;
    }

    private WorkerException noBase(StopAt stopAt) {
        if (snapshots.stream().noneMatch(SnapshotObject::isFull)) {
            String what =
                    snapshots.isEmpty() ? "no snapshots" : "no full snapshot (only " + snapshots.size() + " deltas)";
            return new WorkerException(
                    ErrorCode.NO_SNAPSHOTS,
                    "nothing to restore from: " + what + " in " + describe + (hint.isEmpty() ? "" : "; " + hint));
        }
        return new WorkerException(
                ErrorCode.USAGE, stopAt.describe() + " is before the oldest full snapshot: " + coverage());
    }

    /** A point after the last snapshot is not in the backup: nothing says what happened after it. */
    private void requireCovered(StopAt stopAt) {
        SnapshotObject last = snapshots.get(snapshots.size() - 1);
        Instant newest = snapshots.stream()
                .map(s -> s.name().createdAt())
                .max(Instant::compareTo)
                .orElseThrow();
        boolean after = stopAt instanceof StopAt.AtRevision r
                        && r.revision() > last.name().lastRevision()
                || stopAt instanceof StopAt.AtTime t && t.time().isAfter(newest);
        if (after) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    stopAt.describe() + " is after the last snapshot, so the "
                            + "backup cannot say what the state was then: " + coverage()
                            + "; restore without --to-revision/--to-time for the latest state");
        }
    }

    /** What the snapshots span, for messages: the oldest full snapshot to the newest revision and time. */
    public String coverage() {
        SnapshotObject oldestFull =
                snapshots.stream().filter(SnapshotObject::isFull).findFirst().orElseThrow();
        SnapshotObject last = snapshots.get(snapshots.size() - 1);
        Instant newest = snapshots.stream()
                .map(s -> s.name().createdAt())
                .max(Instant::compareTo)
                .orElseThrow();
        return String.format(
                "the snapshots in %s cover revisions %d..%d, made %s..%s (from %s to %s)",
                describe,
                oldestFull.name().lastRevision(),
                last.name().lastRevision(),
                oldestFull.name().createdAt(),
                newest,
                oldestFull.key(),
                last.key());
    }
}
