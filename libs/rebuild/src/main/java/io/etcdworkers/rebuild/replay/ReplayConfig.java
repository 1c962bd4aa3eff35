package io.etcdworkers.rebuild.replay;

import java.time.Duration;
import java.util.Objects;

/**
 * What only the replay is tuned by: keeping the scratch etcd small while it grows.
 *
 * @param defrag when to compact and defragment
 * @param defragTimeout deadline of one compaction or defragmentation
 */
public record ReplayConfig(DefragPolicyConfig defrag, Duration defragTimeout) {

    public static final Duration DEFAULT_DEFRAG_TIMEOUT = Duration.ofMinutes(10);

    public ReplayConfig {
        Objects.requireNonNull(defrag, "defrag");
        Objects.requireNonNull(defragTimeout, "defragTimeout");
    }

    public static ReplayConfig defaults() {
        return new ReplayConfig(DefragPolicyConfig.defaults(), DEFAULT_DEFRAG_TIMEOUT);
    }
}
