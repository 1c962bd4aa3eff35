package io.etcdworkers.restore.snapshot;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What a restore uses: the latest full snapshot and every delta after it, in order, with every
 * break in the chain found by {@link #problems()}.
 *
 * <p>The first delta may overlap the base (the base's name comes from a read taken before
 * the snapshot, so its database can be ahead of its name; the replay skips the events the
 * database already has). Every later delta must start at the previous one's last revision + 1.
 */
public record SnapshotSelection(SnapshotObject base, List<SnapshotObject> deltas) {

    public SnapshotSelection {
        Objects.requireNonNull(base, "base");
        if (!base.isFull()) {
            throw new IllegalArgumentException("base must be a full snapshot: " + base.key());
        }
        deltas = List.copyOf(deltas);
    }

    /** Every gap or overlap in the chain, in order; empty when the chain is contiguous. */
    public List<ChainProblem> problems() {
        List<ChainProblem> problems = new ArrayList<>();
        SnapshotObject previous = base;
        boolean first = true;
        for (SnapshotObject delta : deltas) {
            long start = delta.name().startRevision();
            long expected = previous.name().lastRevision() + 1;
            boolean broken = first ? start > expected : start != expected;
            if (broken) {
                problems.add(new ChainProblem(previous, delta));
            }
            previous = delta;
            first = false;
        }
        return problems;
    }

    /** Throws {@link ErrorCode#BACKUP_INCONSISTENT} naming every break, if there is any. */
    public void requireContiguous() {
        List<ChainProblem> problems = problems();
        if (!problems.isEmpty()) {
            throw new WorkerException(ErrorCode.BACKUP_INCONSISTENT,
                    problems.size() + " break(s) in the snapshot chain from " + base.key() + ": "
                            + problems.stream().map(ChainProblem::describe).collect(Collectors.joining("; ")));
        }
    }

    /** The revision a restore ends at: the last delta's, or the base's when there is none. */
    public long lastRevision() {
        return deltas.isEmpty() ? base.name().lastRevision() : deltas.get(deltas.size() - 1).name().lastRevision();
    }

    /** Sum of the deltas' sizes as listed (compressed bytes). */
    public long deltaBytes() {
        return deltas.stream().mapToLong(SnapshotObject::size).sum();
    }
}
