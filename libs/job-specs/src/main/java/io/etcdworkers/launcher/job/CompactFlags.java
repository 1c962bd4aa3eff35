package io.etcdworkers.launcher.job;

import io.etcdworkers.contract.WorkerFlags;
import java.time.Duration;

/**
 * The compaction worker's flags (null = left out, the worker's default applies).
 *
 * @param minDeltaRevisions          {@code --min-delta-revisions}: skip below this many revisions (0: no minimum)
 * @param minDeltaSnapshots          {@code --min-delta-snapshots}
 * @param minDeltaBytes              {@code --min-delta-bytes}
 * @param compressionPolicy          {@code --compression-policy}: gzip, zlib, lzw or none
 * @param defragment                 {@code --defragment}
 * @param etcdDefragTimeout          {@code --etcd-defrag-timeout}
 * @param enableSnapshotLeaseRenewal {@code --enable-snapshot-lease-renewal}; the pod then gets a
 *                                   service account token
 * @param fullSnapshotLeaseName      {@code --full-snapshot-lease-name}
 */
public record CompactFlags(
        Long minDeltaRevisions,
        Long minDeltaSnapshots,
        Long minDeltaBytes,
        String compressionPolicy,
        Boolean defragment,
        Duration etcdDefragTimeout,
        boolean enableSnapshotLeaseRenewal,
        String fullSnapshotLeaseName)
        implements JobWork {

    public CompactFlags {
        // 0 is the worker's "no minimum": passed on as given, and a scheduled compaction then gets no default one
        RequestChecks.notNegative(minDeltaRevisions, "min delta revisions");
        RequestChecks.fitsAnInt(
                RequestChecks.notNegative(minDeltaSnapshots, "min delta snapshots"), "min delta snapshots");
        RequestChecks.notNegative(minDeltaBytes, "min delta bytes");
        compressionPolicy = RequestChecks.blankToNull(compressionPolicy);
        if (compressionPolicy != null && !WorkerFlags.COMPRESSION_POLICIES.contains(compressionPolicy)) {
            throw new IllegalArgumentException("compression policy must be one of "
                    + String.join(", ", WorkerFlags.COMPRESSION_POLICIES) + ": " + compressionPolicy);
        }
        if (etcdDefragTimeout != null) {
            RequestChecks.positive(etcdDefragTimeout, "etcd defrag timeout");
        }
        fullSnapshotLeaseName = RequestChecks.blankToNull(fullSnapshotLeaseName);
        if (enableSnapshotLeaseRenewal && fullSnapshotLeaseName == null) {
            throw new IllegalArgumentException("lease renewal needs " + WorkerFlags.FULL_SNAPSHOT_LEASE_NAME);
        }
    }

    @Override
    public WorkerKind kind() {
        return WorkerKind.COMPACT;
    }

    /** Whether any threshold is set, so a run with little to compact exits early. */
    public boolean hasThreshold() {
        return minDeltaRevisions != null || minDeltaSnapshots != null || minDeltaBytes != null;
    }

    /** No flags at all. */
    public static CompactFlags none() {
        return new CompactFlags(null, null, null, null, null, null, false, null);
    }

    /** A copy with {@code --min-delta-revisions} set. */
    public CompactFlags withMinDeltaRevisions(long revisions) {
        return new CompactFlags(
                revisions,
                minDeltaSnapshots,
                minDeltaBytes,
                compressionPolicy,
                defragment,
                etcdDefragTimeout,
                enableSnapshotLeaseRenewal,
                fullSnapshotLeaseName);
    }
}
