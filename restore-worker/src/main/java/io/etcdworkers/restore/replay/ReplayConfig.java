package io.etcdworkers.restore.replay;

import java.time.Duration;
import java.util.Objects;

/**
 * How to replay deltas into the scratch etcd.
 *
 * @param maxFetchers deltas downloaded and verified in parallel, and at most this many ahead
 * @param decodeBudgetBytes decoded events held between the decode and apply threads
 * @param defrag when to compact and defragment
 * @param defragTimeout deadline of one compaction or defragmentation
 * @param leaseTtlSeconds TTL of leases re-granted because a delta names one the base lacks
 * @param progressEvery how often progress is logged
 */
public record ReplayConfig(
        int maxFetchers,
        long decodeBudgetBytes,
        DefragPolicyConfig defrag,
        Duration defragTimeout,
        long leaseTtlSeconds,
        Duration progressEvery) {

    public static final int DEFAULT_MAX_FETCHERS = 4;
    public static final long DEFAULT_DECODE_BUDGET_BYTES = 64L * 1024 * 1024;
    public static final Duration DEFAULT_DEFRAG_TIMEOUT = Duration.ofMinutes(10);
    /** Kubernetes' default event TTL: a guess that matches the most common leased keys. */
    public static final long DEFAULT_LEASE_TTL_SECONDS = 3600;
    public static final Duration DEFAULT_PROGRESS_EVERY = Duration.ofSeconds(5);

    public ReplayConfig {
        Objects.requireNonNull(defrag, "defrag");
        Objects.requireNonNull(defragTimeout, "defragTimeout");
        Objects.requireNonNull(progressEvery, "progressEvery");
        if (maxFetchers < 1) {
            throw new IllegalArgumentException("--max-fetchers must be at least 1: " + maxFetchers);
        }
        if (leaseTtlSeconds < 1) {
            throw new IllegalArgumentException("--replay-lease-ttl must be at least 1s");
        }
        if (decodeBudgetBytes < 1024 * 1024) {
            throw new IllegalArgumentException("decode budget must be at least 1 MiB");
        }
    }

    public static ReplayConfig defaults() {
        return new ReplayConfig(DEFAULT_MAX_FETCHERS, DEFAULT_DECODE_BUDGET_BYTES, DefragPolicyConfig.defaults(),
                DEFAULT_DEFRAG_TIMEOUT, DEFAULT_LEASE_TTL_SECONDS, DEFAULT_PROGRESS_EVERY);
    }

    public ReplayConfig withDefrag(DefragPolicyConfig policy) {
        return new ReplayConfig(maxFetchers, decodeBudgetBytes, policy, defragTimeout, leaseTtlSeconds, progressEvery);
    }
}
