package io.etcdworkers.rebuild.sequence;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.SnapshotObject;

/**
 * The revision asked for lies inside the base's database: the full snapshot's name is taken
 * before it is written, so its database can hold a few revisions more than the name says. The
 * rebuild then starts again from an earlier full snapshot, or fails with this ({@link
 * ErrorCode#USAGE}) when there is none.
 */
public final class BaseBeyondTarget extends WorkerException {
    private final transient SnapshotObject base;
    private final String finding;

    public BaseBeyondTarget(SnapshotObject base, long baseRevision, long target) {
        this(
                base,
                String.format(
                        "revision %d is inside the full snapshot %s, whose database holds revisions up to %d",
                        target, base.key(), baseRevision),
                baseRevision,
                target);
    }

    private BaseBeyondTarget(SnapshotObject base, String finding, long baseRevision, long target) {
        super(
                ErrorCode.USAGE,
                finding
                        + String.format(
                                ": the nearest restorable revision from it is %d, and no "
                                        + "earlier full snapshot reaches back to %d",
                                baseRevision, target));
        this.base = base;
        this.finding = finding;
    }

    /** What was found, without what follows from it: the revision, the full snapshot and how far its database goes. */
    public String finding() {
        return finding;
    }

    /** The full snapshot whose database is past the target. */
    public SnapshotObject base() {
        return base;
    }
}
