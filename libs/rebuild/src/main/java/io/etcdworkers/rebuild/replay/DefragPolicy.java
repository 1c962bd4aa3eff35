package io.etcdworkers.rebuild.replay;

import java.time.Duration;
import java.util.Optional;

/**
 * Decides, from counters and the scratch etcd's sizes, whether to compact and defragment now.
 * Pure: no clock, no etcd; the caller feeds it {@link Observation}s.
 */
public final class DefragPolicy {

    /** What the replay knows at a check point. */
    public record Observation(
            long eventsSinceDefrag, int deltasSinceDefrag, long dbSize, long dbSizeInUse, Duration sinceDefrag) {

        /** {@code 1 - inUse / size}, 0 for an empty or unknown size. */
        public double fragmentation() {
            return dbSize <= 0 ? 0 : Math.max(0, 1.0 - (double) dbSizeInUse / dbSize);
        }
    }

    /** Which trigger fired, for the log and the result. */
    public enum Trigger {
        EVENTS,
        DELTAS,
        DB_SIZE,
        FRAGMENTATION,
        INTERVAL
    }

    private final DefragPolicyConfig config;

    public DefragPolicy(DefragPolicyConfig config) {
        this.config = config;
    }

    public DefragPolicyConfig config() {
        return config;
    }

    /** The first trigger that fires, in the order of {@link Trigger}, or empty. */
    public Optional<Trigger> decide(Observation o) {
        if (config.everyEvents() > 0 && o.eventsSinceDefrag() >= config.everyEvents()) {
            return Optional.of(Trigger.EVENTS);
        }
        if (config.everyDeltas() > 0 && o.deltasSinceDefrag() >= config.everyDeltas()) {
            return Optional.of(Trigger.DELTAS);
        }
        if (config.dbSizeBytes() > 0 && o.dbSize() >= config.dbSizeBytes()) {
            return Optional.of(Trigger.DB_SIZE);
        }
        if (config.fragmentationRatio() > 0
                && o.dbSize() >= config.minDbSizeForRatio()
                && o.fragmentation() >= config.fragmentationRatio()) {
            return Optional.of(Trigger.FRAGMENTATION);
        }
        if (!config.interval().isZero() && o.sinceDefrag().compareTo(config.interval()) >= 0) {
            return Optional.of(Trigger.INTERVAL);
        }
        return Optional.empty();
    }

    /**
     * Whether a check is worth a status call inside a long delta: only the event counter can
     * fire between delta boundaries without asking etcd for its size.
     */
    public boolean eventsTriggerReached(long eventsSinceDefrag) {
        return config.everyEvents() > 0 && eventsSinceDefrag >= config.everyEvents();
    }
}
