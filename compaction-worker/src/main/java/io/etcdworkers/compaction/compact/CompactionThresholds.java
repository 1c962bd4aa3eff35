package io.etcdworkers.compaction.compact;

import io.etcdworkers.format.SnapshotSelection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * When a compaction is worth doing. Each threshold that is set (above 0) is a minimum of what
 * accumulated since the latest full snapshot; the compaction runs as soon as one of them is
 * reached. With none set it runs whenever there is at least one delta. A CronJob that runs
 * often therefore exits quickly, without starting etcd, until there is enough to compact.
 *
 * @param minRevisions revisions since the base
 * @param minSnapshots delta snapshots since the base
 * @param minBytes bytes of deltas (as stored) since the base
 */
public record CompactionThresholds(long minRevisions, int minSnapshots, long minBytes) {

    public CompactionThresholds {
        if (minRevisions < 0 || minSnapshots < 0 || minBytes < 0) {
            throw new IllegalArgumentException("compaction thresholds must not be negative");
        }
    }

    public static CompactionThresholds none() {
        return new CompactionThresholds(0, 0, 0);
    }

    /** Why to skip, or empty when the compaction should run. */
    public Optional<String> skipReason(SnapshotSelection selection) {
        if (selection.deltas().isEmpty()) {
            return Optional.of("no deltas after the latest full snapshot "
                    + selection.base().key());
        }
        long revisions = selection.lastRevision() - selection.base().name().lastRevision();
        int snapshots = selection.deltas().size();
        long bytes = selection.deltaBytes();
        List<String> below = new ArrayList<>();
        boolean anySet = false;
        boolean reached = false;
        if (minRevisions > 0) {
            anySet = true;
            reached |= revisions >= minRevisions;
            below.add(revisions + " revisions < --min-delta-revisions " + minRevisions);
        }
        if (minSnapshots > 0) {
            anySet = true;
            reached |= snapshots >= minSnapshots;
            below.add(snapshots + " deltas < --min-delta-snapshots " + minSnapshots);
        }
        if (minBytes > 0) {
            anySet = true;
            reached |= bytes >= minBytes;
            below.add(bytes + " delta bytes < --min-delta-bytes " + minBytes);
        }
        if (!anySet || reached) {
            return Optional.empty();
        }
        return Optional.of("below every threshold since " + selection.base().key() + ": " + String.join(", ", below));
    }
}
