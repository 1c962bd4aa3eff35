package io.etcdworkers.compaction.compact;

import io.etcdworkers.restore.etcd.MaintenanceSnapshot;
import io.etcdworkers.restore.restore.RestoreConfig;
import io.etcdworkers.restore.snapshot.codec.Compression;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a compaction needs beyond a restore's configuration.
 *
 * @param restore the restore settings (store prefix, scratch, etcd, replay and defragmentation policy);
 *     its data dir is unused: a compaction rebuilds in its scratch dir
 * @param thresholds when compacting is worth it
 * @param compression the codec of the new snapshot, or empty for the last delta's (as etcd-backup-restore does)
 * @param defragment whether to defragment after the final compaction
 * @param snapshotTimeout deadline of streaming the snapshot out of etcd
 */
public record CompactionConfig(
        RestoreConfig restore,
        CompactionThresholds thresholds,
        Optional<Compression> compression,
        boolean defragment,
        Duration snapshotTimeout) {

    public static final Duration DEFAULT_SNAPSHOT_TIMEOUT = MaintenanceSnapshot.DEFAULT_TIMEOUT;

    public CompactionConfig {
        Objects.requireNonNull(restore, "restore");
        Objects.requireNonNull(thresholds, "thresholds");
        Objects.requireNonNull(compression, "compression");
        Objects.requireNonNull(snapshotTimeout, "snapshotTimeout");
    }
}
