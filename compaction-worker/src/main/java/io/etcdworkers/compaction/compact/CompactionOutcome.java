package io.etcdworkers.compaction.compact;

import io.etcdworkers.compaction.lease.SnapshotLeaseUpdater;
import io.etcdworkers.rebuild.engine.RebuildOutcome;
import io.etcdworkers.format.SnapshotSelection;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A finished compaction: skipped (with the reason), or the rebuild it ran, the database sizes
 * around the final compaction, the uploaded snapshot and what became of the Lease.
 *
 * @param lease the renewal's result, when one was asked for; a failed renewal is here, not thrown
 */
public record CompactionOutcome(
        SnapshotSelection selection,
        Optional<String> skipReason,
        Optional<RebuildOutcome> rebuilt,
        long dbSizeBeforeCompaction,
        long dbSizeAfterCompaction,
        Optional<UploadedSnapshot> uploaded,
        Optional<SnapshotLeaseUpdater.Result> lease,
        Map<String, Duration> phases) {

    public static CompactionOutcome skipped(SnapshotSelection selection, String reason, Map<String, Duration> phases) {
        return new CompactionOutcome(selection, Optional.of(reason), Optional.empty(), 0, 0, Optional.empty(),
                Optional.empty(), phases);
    }

    public boolean isSkipped() {
        return skipReason.isPresent();
    }
}
