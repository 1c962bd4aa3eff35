package io.etcdworkers.launcher.job;

import java.time.Duration;
import java.util.Objects;

/**
 * The copy worker's flags, named as etcdbrctl's {@code copy} names them (null = left out, the worker's
 * default applies): the request's store is the target, {@link #source} the store copied from.
 *
 * @param source                       the store the backups are copied from ({@code --source-...} flags),
 *                                     its Secret mounted as etcd-druid's copy task mounts it
 * @param maxBackupsToCopy             {@code --max-backups-to-copy}: the newest N full snapshots with their deltas
 * @param maxBackupAge                 {@code --max-backup-age}: days
 * @param waitForFinalSnapshot         {@code --wait-for-final-snapshot}
 * @param waitForFinalSnapshotTimeout  {@code --wait-for-final-snapshot-timeout}
 * @param compact                      {@code --compact}: one verified full snapshot of the source's latest
 *                                     state instead of every object
 */
public record CopyFlags(
        StoreRef source,
        Integer maxBackupsToCopy,
        Integer maxBackupAge,
        Boolean waitForFinalSnapshot,
        Duration waitForFinalSnapshotTimeout,
        boolean compact)
        implements JobWork {

    public CopyFlags {
        Objects.requireNonNull(source, "source store");
        if (source.provider() == StorageProvider.ECS) {
            // etcdbrctl reads ECS credentials from the unprefixed variables only, the target's
            throw new IllegalArgumentException(
                    "a copy cannot read an ECS source: its credentials would be the target's");
        }
        if (maxBackupsToCopy != null && maxBackupsToCopy < 1) {
            throw new IllegalArgumentException("max backups to copy must be at least 1: " + maxBackupsToCopy);
        }
        if (maxBackupAge != null && maxBackupAge < 1) {
            throw new IllegalArgumentException("max backup age must be at least 1 day: " + maxBackupAge);
        }
        if (waitForFinalSnapshotTimeout != null) {
            RequestChecks.positive(waitForFinalSnapshotTimeout, "wait for final snapshot timeout");
        }
    }

    @Override
    public WorkerKind kind() {
        return WorkerKind.COPY;
    }
}
