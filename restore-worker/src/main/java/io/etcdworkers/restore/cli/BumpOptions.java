package io.etcdworkers.restore.cli;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.restore.BumpSetting;
import picocli.CommandLine.Option;

/** {@code --bump-revision N --mark-compacted}, with etcdutl's meaning, and the point-in-time default. */
public final class BumpOptions {

    @Option(
            names = WorkerFlags.BUMP_REVISION,
            paramLabel = "N",
            description =
                    "Raise the restored database's revision by N and mark every revision up to the new one "
                            + "compacted (with " + WorkerFlags.MARK_COMPACTED
                            + ", as etcdutl snapshot restore does): etcd starts "
                            + "at the old latest revision + N, watches from before it re-list. Default: a point-in-time restore "
                            + "is raised past the bucket's latest revision + " + BumpSetting.MARGIN
                            + ", so the backup sidecar keeps "
                            + "it and its next snapshots land above every revision in the bucket; a latest-state restore is not "
                            + "raised. 0: no bump; the sidecar then finds the data dir below the bucket's latest revision (\"current "
                            + "etcd revision ... is less than latest snapshot revision\") and restores the latest state over it.")
    Long bumpRevision;

    @Option(
            names = WorkerFlags.MARK_COMPACTED,
            description =
                    "Required with a positive " + WorkerFlags.BUMP_REVISION + " (and refused without one), as etcdutl "
                            + "requires it: every revision up to the bumped one is compacted.")
    boolean markCompacted;

    /** The bump these flags ask for; {@code USAGE} when only one of the two is given, as etcdutl refuses it. */
    public BumpSetting toSetting() {
        if (bumpRevision == null && !markCompacted) {
            return BumpSetting.byDefault();
        }
        long n = bumpRevision == null ? 0 : bumpRevision;
        if (n < 0) {
            throw new WorkerException(ErrorCode.USAGE, WorkerFlags.BUMP_REVISION + " must not be negative: " + n);
        }
        if (n == 0 && markCompacted || n > 0 && !markCompacted) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    WorkerFlags.MARK_COMPACTED + " is required with " + WorkerFlags.BUMP_REVISION
                            + " > 0, and only then");
        }
        return BumpSetting.of(n);
    }
}
