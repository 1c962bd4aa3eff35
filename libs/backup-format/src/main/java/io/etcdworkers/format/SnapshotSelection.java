package io.etcdworkers.format;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What a rebuild uses: a full snapshot and the deltas after it, in order, up to the point asked
 * for, with every break in the chain found by {@link #problems()}.
 *
 * <p>The first delta may overlap the base (the base's name comes from a read taken before
 * the snapshot, so its database can be ahead of its name; the replay skips the events the
 * database already has). Every later delta must start at the previous one's last revision + 1.
 *
 * @param base the full snapshot the rebuild starts from
 * @param deltas the deltas after it, as far as {@code point} needs
 * @param point where the rebuild ends
 * @param omitted what a {@code --to-last-good} selection left out before anything was read
 * @param setAside newer full snapshots found damaged when read, newest first, so this older one is
 *     the base (empty when the newest one is)
 * @param excluded the snapshots under the prefix that carry the exclude mark, left out of every
 *     selection ({@link SnapshotCatalog#excluded()})
 */
public record SnapshotSelection(
        SnapshotObject base,
        List<SnapshotObject> deltas,
        RestorePoint point,
        List<Omission> omitted,
        List<BaseSetAside> setAside,
        List<SnapshotObject> excluded) {

    public SnapshotSelection {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(point, "point");
        if (!base.isFull()) {
            throw new IllegalArgumentException("base must be a full snapshot: " + base.key());
        }
        deltas = List.copyOf(deltas);
        omitted = List.copyOf(omitted);
        setAside = List.copyOf(setAside);
        excluded = List.copyOf(excluded);
    }

    /** A selection from the newest full snapshot the point allows (nothing set aside). */
    public SnapshotSelection(
            SnapshotObject base, List<SnapshotObject> deltas, RestorePoint point, List<Omission> omitted) {
        this(base, deltas, point, omitted, List.of(), List.of());
    }

    /**
     * This selection used in place of the newer ones in {@code newer} (newest first), with what it
     * leaves out of their reach added to {@link #omitted()}.
     */
    public SnapshotSelection replacing(List<BaseSetAside> newer, List<Omission> leftOut) {
        List<Omission> left = new ArrayList<>(omitted);
        left.addAll(leftOut);
        List<BaseSetAside> aside = new ArrayList<>(setAside);
        aside.addAll(newer);
        return new SnapshotSelection(base, deltas, point, left, aside, excluded);
    }

    /** The latest full snapshot's selection: every delta after it. */
    public SnapshotSelection(SnapshotObject base, List<SnapshotObject> deltas) {
        this(base, deltas, RestorePoint.LATEST, List.of());
    }

    /**
     * Every gap or overlap in the chain, in order; empty when the chain is contiguous. An
     * overlap that {@link #overlaps()} lists is not one: whether it is sound is known only when the
     * two deltas are read.
     */
    public List<ChainProblem> problems() {
        List<ChainProblem> problems = new ArrayList<>();
        SnapshotObject previous = base;
        boolean first = true;
        for (SnapshotObject delta : deltas) {
            long start = delta.name().startRevision();
            long expected = previous.name().lastRevision() + 1;
            boolean broken = first ? start > expected : start != expected && !checkableOverlap(previous, delta);
            if (broken) {
                problems.add(new ChainProblem(previous, delta));
            }
            previous = delta;
            first = false;
        }
        return problems;
    }

    /**
     * The overlaps between two deltas that a rebuild checks as it reads them: the later delta
     * starts inside the earlier one (at or after its start) and ends after it, as two deltas
     * written around a leader change do. Where the overlapping revisions hold the same events the
     * chain is sound (they are taken once); where they differ the rebuild refuses it.
     */
    public List<ChainProblem> overlaps() {
        List<ChainProblem> overlaps = new ArrayList<>();
        for (int i = 1; i < deltas.size(); i++) {
            if (checkableOverlap(deltas.get(i - 1), deltas.get(i))) {
                overlaps.add(new ChainProblem(deltas.get(i - 1), deltas.get(i)));
            }
        }
        return overlaps;
    }

    private static boolean checkableOverlap(SnapshotObject earlier, SnapshotObject later) {
        return !earlier.isFull()
                && later.name().startRevision() >= earlier.name().startRevision()
                && later.name().startRevision() <= earlier.name().lastRevision()
                && later.name().lastRevision() > earlier.name().lastRevision();
    }

    /**
     * The selection a rebuild can run on: this one when the chain is contiguous; with {@code
     * --to-last-good} the deltas before the first break, the break and everything after it in
     * {@link #omitted()}.
     *
     * @throws WorkerException {@link ErrorCode#BACKUP_INCONSISTENT} naming every break, without {@code --to-last-good}
     */
    public SnapshotSelection usable() {
        List<ChainProblem> problems = problems();
        if (problems.isEmpty()) {
            return this;
        }
        if (!point.lastGood()) {
            throw new WorkerException(
                    ErrorCode.BACKUP_INCONSISTENT,
                    problems.size() + " break(s) in the snapshot chain from " + base.key() + ": "
                            + problems.stream().map(ChainProblem::describe).collect(Collectors.joining("; ")));
        }
        ChainProblem first = problems.get(0);
        int cut = deltas.indexOf(first.next());
        List<Omission> left = new ArrayList<>(omitted);
        left.add(Omission.gap(first));
        for (SnapshotObject delta : deltas.subList(cut, deltas.size())) {
            left.add(Omission.following(delta, first.isGap() ? "the missing revisions" : "the overlap"));
        }
        return new SnapshotSelection(base, deltas.subList(0, cut), point, left, setAside, excluded);
    }

    /** Throws {@link ErrorCode#BACKUP_INCONSISTENT} naming every break, if there is any. */
    public void requireContiguous() {
        new SnapshotSelection(base, deltas, new RestorePoint(point.stopAt(), false), omitted, setAside, excluded)
                .usable();
    }

    /** The revision the chain ends at: the last delta's, or the base's when there is none. */
    public long lastRevision() {
        return deltas.isEmpty()
                ? base.name().lastRevision()
                : deltas.get(deltas.size() - 1).name().lastRevision();
    }

    /** The revision the rebuild aims at, for progress: the one asked for, else the chain's last. */
    public long targetRevision() {
        return point.stopAt() instanceof StopAt.AtRevision r ? Math.min(r.revision(), lastRevision()) : lastRevision();
    }

    /** Sum of the deltas' sizes as listed (compressed bytes). */
    public long deltaBytes() {
        return deltas.stream().mapToLong(SnapshotObject::size).sum();
    }
}
