package io.etcdworkers.launcher.job;

import io.etcdworkers.contract.WorkerFlags;
import java.time.Duration;

/**
 * How both workers build the database: the engine, and the replay's defragmentation policy; a
 * null field is left out so the worker's default applies, and 0 is passed on: the workers read
 * 0 as "this trigger off", the only way to switch off a trigger that is on by default.
 *
 * @param everyEvents         {@code --defrag-every-events}, 0 = off
 * @param everyDeltas         {@code --defrag-every-deltas}, 0 = off
 * @param dbSizeBytes         {@code --defrag-db-size-bytes}, 0 = off
 * @param fragmentationRatio  {@code --defrag-fragmentation-ratio}, in [0, 1), 0 = off
 * @param interval            {@code --defrag-interval}, 0 = off
 * @param engine              {@code --engine}: {@code replay}, {@code offline} or {@code auto}
 */
public record DefragFlags(
        Long everyEvents,
        Long everyDeltas,
        Long dbSizeBytes,
        Double fragmentationRatio,
        Duration interval,
        String engine) {
    public DefragFlags {
        RequestChecks.notNegative(everyEvents, "defrag every events");
        RequestChecks.fitsAnInt(RequestChecks.notNegative(everyDeltas, "defrag every deltas"), "defrag every deltas");
        RequestChecks.notNegative(dbSizeBytes, "defrag db size bytes");
        if (fragmentationRatio != null && !(fragmentationRatio >= 0 && fragmentationRatio < 1)) {
            throw new IllegalArgumentException(
                    "defrag fragmentation ratio must be in [0, 1) (0: off): " + fragmentationRatio);
        }
        if (interval != null && interval.isNegative()) {
            throw new IllegalArgumentException("defrag interval must not be negative (0: off): " + interval);
        }
        if (engine != null && !WorkerFlags.ENGINES.contains(engine)) {
            throw new IllegalArgumentException("engine must be replay, offline or auto: " + engine);
        }
    }

    /** No flags: the workers' own defaults. */
    public static DefragFlags workerDefaults() {
        return new DefragFlags(null, null, null, null, null, null);
    }
}
