package io.etcdworkers.rebuild.replay;

import java.time.Duration;
import java.util.Objects;

/**
 * When to compact and defragment the scratch etcd during a replay. Any trigger that is set
 * and reached fires; a trigger of 0 (or {@link Duration#ZERO}) is off.
 *
 * @param everyEvents events applied since the last defragmentation
 * @param everyDeltas deltas applied since the last defragmentation
 * @param dbSizeBytes database file size (etcd's {@code dbSize})
 * @param fragmentationRatio {@code 1 - dbSizeInUse / dbSize}, only once the database is at
 *     least {@link #minDbSizeForRatio} bytes (defragmenting a tiny file gains nothing)
 * @param interval time since the last defragmentation
 * @param minDbSizeForRatio floor for the ratio trigger
 */
public record DefragPolicyConfig(
        long everyEvents,
        int everyDeltas,
        long dbSizeBytes,
        double fragmentationRatio,
        Duration interval,
        long minDbSizeForRatio) {

    /** Defaults that keep memory bounded without being asked (see docs/tuning.md). */
    public static final long DEFAULT_EVERY_EVENTS = 100_000;

    public static final int DEFAULT_EVERY_DELTAS = 0;
    public static final long DEFAULT_DB_SIZE_BYTES = 512L * 1024 * 1024;
    public static final double DEFAULT_FRAGMENTATION_RATIO = 0.5;
    public static final Duration DEFAULT_INTERVAL = Duration.ZERO;
    public static final long DEFAULT_MIN_DB_SIZE_FOR_RATIO = 64L * 1024 * 1024;

    public DefragPolicyConfig {
        Objects.requireNonNull(interval, "interval");
        if (everyEvents < 0 || everyDeltas < 0 || dbSizeBytes < 0 || minDbSizeForRatio < 0) {
            throw new IllegalArgumentException("defragmentation triggers must not be negative");
        }
        if (!(fragmentationRatio >= 0 && fragmentationRatio < 1)) {
            throw new IllegalArgumentException("--defrag-fragmentation-ratio must be in [0, 1): " + fragmentationRatio);
        }
        if (interval.isNegative()) {
            throw new IllegalArgumentException("--defrag-interval must not be negative");
        }
    }

    public static DefragPolicyConfig defaults() {
        return new DefragPolicyConfig(
                DEFAULT_EVERY_EVENTS,
                DEFAULT_EVERY_DELTAS,
                DEFAULT_DB_SIZE_BYTES,
                DEFAULT_FRAGMENTATION_RATIO,
                DEFAULT_INTERVAL,
                DEFAULT_MIN_DB_SIZE_FOR_RATIO);
    }

    /** Every trigger off: replay without ever compacting. */
    public static DefragPolicyConfig off() {
        return new DefragPolicyConfig(0, 0, 0, 0, Duration.ZERO, 0);
    }
}
