package io.etcdworkers.rebuild.engine;

import java.time.Duration;

/**
 * What compaction and defragmentation did during a replay.
 *
 * @param count successful defragmentations
 * @param failed failed attempts (retried at the next trigger)
 * @param bytesReclaimed database bytes given back, summed
 * @param time time spent compacting and defragmenting
 * @param peakDbSize largest database size seen
 * @param lastTrigger what fired last, or "none"
 */
public record DefragStats(
        int count, int failed, long bytesReclaimed, Duration time, long peakDbSize, String lastTrigger) {

    /** No compaction or defragmentation ran; the database was never larger than {@code dbSize}. */
    public static DefragStats none(long dbSize) {
        return new DefragStats(0, 0, 0, Duration.ZERO, dbSize, "none");
    }
}
