package io.etcdworkers.compaction.compact;

import io.etcdworkers.compaction.lease.SnapshotLeaseUpdater;
import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.rebuild.engine.RebuildOutcome;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A finished compaction: {@link Skipped} (too little accumulated), or {@link Compacted}, with
 * the rebuild it ran and the snapshot it uploaded.
 */
public sealed interface CompactionOutcome {

    /** The base and the deltas the compaction looked at. */
    SnapshotSelection selection();

    /** Wall time of each phase, in order. */
    Map<String, Duration> phases();

    /**
     * Nothing rebuilt, nothing uploaded.
     *
     * @param reason which thresholds the deltas stay below
     */
    record Skipped(SnapshotSelection selection, String reason, Map<String, Duration> phases)
            implements CompactionOutcome {}

    /**
     * A new full snapshot uploaded.
     *
     * @param rebuilt the verified rebuild it was taken from
     * @param dbSizeBeforeCompaction the database's size before the final compaction
     * @param dbSizeAfterCompaction its size after it (and the defragmentation, when asked for)
     * @param uploaded the snapshot as it stands in the store
     * @param lease the renewal's result, when one was asked for; a failed renewal is here, not thrown
     */
    record Compacted(
            SnapshotSelection selection,
            RebuildOutcome rebuilt,
            long dbSizeBeforeCompaction,
            long dbSizeAfterCompaction,
            UploadedSnapshot uploaded,
            Optional<SnapshotLeaseUpdater.Result> lease,
            Map<String, Duration> phases)
            implements CompactionOutcome {}
}
