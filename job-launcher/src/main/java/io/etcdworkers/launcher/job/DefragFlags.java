package io.etcdworkers.launcher.job;

import java.time.Duration;

/**
 * The defragmentation policy both workers take; a null field is left out so the worker's default applies.
 *
 * @param everyEvents         {@code --defrag-every-events}
 * @param everyDeltas         {@code --defrag-every-deltas}
 * @param dbSizeBytes         {@code --defrag-db-size-bytes}
 * @param fragmentationRatio  {@code --defrag-fragmentation-ratio}, in (0, 1)
 * @param interval            {@code --defrag-interval}
 */
public record DefragFlags(
        Long everyEvents,
        Long everyDeltas,
        Long dbSizeBytes,
        Double fragmentationRatio,
        Duration interval) {

    public DefragFlags {
        RequestChecks.positive(everyEvents, "defrag every events");
        RequestChecks.positive(everyDeltas, "defrag every deltas");
        RequestChecks.positive(dbSizeBytes, "defrag db size bytes");
        if (fragmentationRatio != null && !(fragmentationRatio > 0 && fragmentationRatio < 1)) {
            throw new IllegalArgumentException("defrag fragmentation ratio must be in (0, 1): " + fragmentationRatio);
        }
        if (interval != null) {
            RequestChecks.positive(interval, "defrag interval");
        }
    }

    /** No flags: the workers' own defaults. */
    public static DefragFlags workerDefaults() {
        return new DefragFlags(null, null, null, null, null);
    }
}
