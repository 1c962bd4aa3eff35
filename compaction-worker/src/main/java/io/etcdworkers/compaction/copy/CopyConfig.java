package io.etcdworkers.compaction.copy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * What a copy does, with etcdbrctl's meaning of each value.
 *
 * @param sourcePrefix the source's store prefix (objects under {@code <prefix>/v2/}), already merged
 * @param targetPrefix the target's store prefix
 * @param maxBackups the newest N backups (a full snapshot and the deltas after it); -1: all
 * @param maxBackupAgeDays only backups whose full snapshot is younger than N days; -1: any age
 * @param parallel objects copied at once
 * @param waitForFinal wait for a {@code .final} full snapshot among the 4 newest before copying
 * @param waitTimeout how long to wait for it; zero: until stopped
 * @param tempDir where each object is held while it is checked, before it is uploaded
 * @param dryRun list what would be copied, write nothing
 */
public record CopyConfig(
        String sourcePrefix,
        String targetPrefix,
        int maxBackups,
        int maxBackupAgeDays,
        int parallel,
        boolean waitForFinal,
        Duration waitTimeout,
        Path tempDir,
        boolean dryRun) {

    public CopyConfig {
        Objects.requireNonNull(sourcePrefix, "sourcePrefix");
        Objects.requireNonNull(targetPrefix, "targetPrefix");
        Objects.requireNonNull(waitTimeout, "waitTimeout");
        Objects.requireNonNull(tempDir, "tempDir");
        if (maxBackups < -1) {
            throw new IllegalArgumentException("--max-backups-to-copy must be -1 (all) or more: " + maxBackups);
        }
        if (maxBackupAgeDays < -1) {
            throw new IllegalArgumentException("--max-backup-age must be -1 (any) or more: " + maxBackupAgeDays);
        }
        if (parallel <= 0) {
            throw new IllegalArgumentException("--max-parallel-copy-operations must be positive: " + parallel);
        }
        if (waitTimeout.isNegative()) {
            throw new IllegalArgumentException(
                    "--wait-for-final-snapshot-timeout must not be negative: " + waitTimeout);
        }
    }
}
