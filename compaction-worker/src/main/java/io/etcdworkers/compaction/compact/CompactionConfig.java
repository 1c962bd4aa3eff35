package io.etcdworkers.compaction.compact;

import io.etcdworkers.compaction.lease.LeaseRenewalConfig;
import io.etcdworkers.etcd.MaintenanceSnapshot;
import io.etcdworkers.format.codec.Compression;
import io.etcdworkers.rebuild.RebuildConfig;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A compaction: a rebuild in the scratch dir, and what becomes of it.
 *
 * @param rebuild how the database is rebuilt and verified (store prefix, scratch, etcd, engines)
 * @param thresholds when compacting is worth it
 * @param compression the codec of the new snapshot, or empty for the last delta's (as etcd-backup-restore does)
 * @param defragment whether to defragment after the final compaction
 * @param snapshotTimeout deadline of streaming the snapshot out of etcd
 * @param leaseRenewal the full-snapshot Lease to renew after the upload, if any
 */
public record CompactionConfig(
        RebuildConfig rebuild,
        CompactionThresholds thresholds,
        Optional<Compression> compression,
        boolean defragment,
        Duration snapshotTimeout,
        Optional<LeaseRenewalConfig> leaseRenewal) {

    public static final Duration DEFAULT_SNAPSHOT_TIMEOUT = MaintenanceSnapshot.DEFAULT_TIMEOUT;

    public CompactionConfig {
        Objects.requireNonNull(rebuild, "rebuild");
        Objects.requireNonNull(thresholds, "thresholds");
        Objects.requireNonNull(compression, "compression");
        Objects.requireNonNull(snapshotTimeout, "snapshotTimeout");
        Objects.requireNonNull(leaseRenewal, "leaseRenewal");
    }
}
