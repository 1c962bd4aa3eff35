package io.etcdworkers.rebuild.engine;

import io.etcdworkers.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.rebuild.verify.VerifyScope;
import java.time.Duration;
import java.util.Objects;

/**
 * What every engine is tuned by.
 *
 * @param maxFetchers deltas downloaded and verified in parallel, and at most this many ahead
 * @param decodeBudgetBytes decoded events held between the decode and apply threads (replay)
 * @param leaseTtlSeconds TTL of a lease that deltas name but the base lacks (granted or written with the same id)
 * @param progressEvery how often progress is logged
 * @param quotaBytes the scratch etcd's {@code --quota-backend-bytes} ({@link
 *     EmbeddedEtcdConfig#DEFAULT_QUOTA_BACKEND_BYTES} unless given)
 * @param callTimeout deadline of one call to the scratch etcd
 * @param verifyScope how much of the keyspace the offline engine's verification asks etcd to serve
 * @param foldMemoryBytes heap the offline fold's live keys may take before they go to key partitions
 *     on disk; {@link #AUTO} for a share of the JVM's maximum heap ({@link #foldMemoryBudget})
 */
public record EngineSettings(
        int maxFetchers,
        long decodeBudgetBytes,
        long leaseTtlSeconds,
        Duration progressEvery,
        long quotaBytes,
        Duration callTimeout,
        VerifyScope verifyScope,
        long foldMemoryBytes) {

    /** {@code foldMemoryBytes}: derive it from the JVM's heap. */
    public static final long AUTO = 0;
    /** Heap the rest of a worker takes besides the fold's keys (decoders, buffers, the verification), measured. */
    public static final long HEAP_BESIDES_FOLD = 64L * 1024 * 1024;

    public static final long MIN_FOLD_MEMORY = 8L * 1024 * 1024;

    public static final int DEFAULT_MAX_FETCHERS = 4;
    public static final long DEFAULT_DECODE_BUDGET_BYTES = 64L * 1024 * 1024;
    /** Kubernetes' default event TTL: a guess that matches the most common leased keys. */
    public static final long DEFAULT_LEASE_TTL_SECONDS = 3600;

    public static final Duration DEFAULT_PROGRESS_EVERY = Duration.ofSeconds(5);
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofMinutes(2);

    public EngineSettings {
        Objects.requireNonNull(progressEvery, "progressEvery");
        Objects.requireNonNull(callTimeout, "callTimeout");
        Objects.requireNonNull(verifyScope, "verifyScope");
        if (maxFetchers < 1) {
            throw new IllegalArgumentException("--max-fetchers must be at least 1: " + maxFetchers);
        }
        if (leaseTtlSeconds < 1) {
            throw new IllegalArgumentException("--replay-lease-ttl must be at least 1s");
        }
        if (decodeBudgetBytes < 1024 * 1024) {
            throw new IllegalArgumentException("decode budget must be at least 1 MiB");
        }
        if (quotaBytes <= 0) {
            throw new IllegalArgumentException("--embedded-etcd-quota-bytes must be positive");
        }
        if (foldMemoryBytes != AUTO && foldMemoryBytes < MIN_FOLD_MEMORY) {
            throw new IllegalArgumentException("--fold-memory must be at least 8Mi: " + foldMemoryBytes);
        }
    }

    /**
     * The fold's budget: as given, or two thirds of what the heap has beyond the rest of the
     * worker (a heap half as large again as the keys keeps the collector from slowing the fold).
     */
    public long foldMemoryBudget(long maxHeapBytes) {
        if (foldMemoryBytes != AUTO) {
            return foldMemoryBytes;
        }
        return Math.max(MIN_FOLD_MEMORY, (maxHeapBytes - HEAP_BESIDES_FOLD) / 3 * 2);
    }

    public static EngineSettings defaults() {
        return new EngineSettings(
                DEFAULT_MAX_FETCHERS,
                DEFAULT_DECODE_BUDGET_BYTES,
                DEFAULT_LEASE_TTL_SECONDS,
                DEFAULT_PROGRESS_EVERY,
                EmbeddedEtcdConfig.DEFAULT_QUOTA_BACKEND_BYTES,
                DEFAULT_CALL_TIMEOUT,
                VerifyScope.SAMPLE,
                AUTO);
    }

    /** The same settings with another verification scope. */
    public EngineSettings withVerifyScope(VerifyScope scope) {
        return new EngineSettings(
                maxFetchers,
                decodeBudgetBytes,
                leaseTtlSeconds,
                progressEvery,
                quotaBytes,
                callTimeout,
                scope,
                foldMemoryBytes);
    }
}
