package io.etcdworkers.compaction.compact;

import io.etcdworkers.restore.restore.RestoreOutcome;
import io.etcdworkers.restore.snapshot.SnapshotSelection;
import java.util.Optional;

/**
 * A finished compaction: either skipped (with the reason) or the restore it ran, the database
 * sizes around the final compaction, and the uploaded snapshot.
 */
public record CompactionOutcome(
        SnapshotSelection selection,
        Optional<String> skipReason,
        Optional<RestoreOutcome> restore,
        long dbSizeBeforeCompaction,
        long dbSizeAfterCompaction,
        Optional<UploadedSnapshot> uploaded) {

    public static CompactionOutcome skipped(SnapshotSelection selection, String reason) {
        return new CompactionOutcome(selection, Optional.of(reason), Optional.empty(), 0, 0, Optional.empty());
    }

    public boolean isSkipped() {
        return skipReason.isPresent();
    }
}
