package io.etcdworkers.restore.cli;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.format.RestorePoint;
import io.etcdworkers.format.StopAt;
import io.etcdworkers.workercli.Rfc3339Converter;
import java.time.Instant;
import picocli.CommandLine.Option;

/** Where a restore ends: the latest state unless one of these says otherwise. */
public final class PointInTimeOptions {

    @Option(
            names = WorkerFlags.TO_REVISION,
            paramLabel = "REV",
            description = "Restore the state right after this revision (from the latest full snapshot at or before it "
                    + "and the deltas up to it). Outside the revisions the bucket covers: exit 2, naming them.")
    Long toRevision;

    @Option(
            names = WorkerFlags.TO_TIME,
            paramLabel = "RFC3339",
            converter = Rfc3339Converter.class,
            description = "Restore the state at this time: every revision the backup sidecar received at or before it "
                    + "(e.g. 2026-12-01T03:04:05Z). The result says which revision and time were reached.")
    Instant toTime;

    @Option(
            names = WorkerFlags.TO_LAST_GOOD,
            description = "Do not fail on a damaged, missing or inconsistent delta: restore up to the last revision "
                    + "before it and list what was left out in the result. Without it such a bucket fails the restore.")
    boolean toLastGood;

    /** The point these flags ask for; {@code USAGE} when both a revision and a time are given. */
    public RestorePoint toPoint() {
        if (toRevision != null && toTime != null) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    WorkerFlags.TO_REVISION + " and " + WorkerFlags.TO_TIME
                            + " name the same thing two ways: give one");
        }
        if (toRevision != null && toRevision < 1) {
            throw new WorkerException(ErrorCode.USAGE, WorkerFlags.TO_REVISION + " must be at least 1: " + toRevision);
        }
        StopAt stopAt = toRevision != null
                ? new StopAt.AtRevision(toRevision)
                : toTime != null ? new StopAt.AtTime(toTime) : StopAt.LATEST;
        return new RestorePoint(stopAt, toLastGood);
    }
}
