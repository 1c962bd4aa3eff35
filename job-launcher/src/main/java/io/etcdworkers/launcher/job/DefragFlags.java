package io.etcdworkers.launcher.job;

import java.time.Duration;

/**
 * How both workers build the database: the engine, and the replay's defragmentation policy; a
 * null field is left out so the worker's default applies.
 *
 * @param everyEvents         {@code --defrag-every-events}
 * @param everyDeltas         {@code --defrag-every-deltas}
 * @param dbSizeBytes         {@code --defrag-db-size-bytes}
 * @param fragmentationRatio  {@code --defrag-fragmentation-ratio}, in (0, 1)
 * @param interval            {@code --defrag-interval}
 * @param engine              {@code --engine}: {@code replay}, {@code offline} or {@code auto}
 */
public record DefragFlags(
        Long everyEvents,
        Long everyDeltas,
        Long dbSizeBytes,
        Double fragmentationRatio,
        Duration interval,
        String engine) {
    private static final java.util.Set<String> ENGINES = java.util.Set.of("replay", "offline", "auto");


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
        if (engine != null && !ENGINES.contains(engine)) {
            throw new IllegalArgumentException("engine must be replay, offline or auto: " + engine);
        }
    }

    /** No flags: the workers' own defaults. */
    public static DefragFlags workerDefaults() {
        return new DefragFlags(null, null, null, null, null, null);
    }
}
