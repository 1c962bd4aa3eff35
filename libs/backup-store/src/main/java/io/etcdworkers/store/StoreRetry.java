package io.etcdworkers.store;

import java.time.Duration;
import java.util.Objects;

/**
 * How hard the ABS, GCS and Swift stores try: {@code maxTries} tries per request, exponential
 * backoff from {@code baseDelay} up to {@code maxDelay}, and {@code tryTimeout} bounding one try.
 * What one try is, and what its timeout bounds, is each store's: ABS's SDK applies it to one
 * request or one chunk of a download (headers and body); GCS's SDK as the socket read timeout (the
 * longest a request waits for the next bytes of its answer), with jitter on the backoff; Swift's
 * client to one request until its answer's headers (a 401 that a new login answers is not counted
 * as a try).
 */
public record StoreRetry(int maxTries, Duration baseDelay, Duration maxDelay, Duration tryTimeout) {
    /** As the S3 store: 5 tries, 0.5 s doubling to at most 20 s, 2 min a try. */
    public static final StoreRetry DEFAULT =
            new StoreRetry(5, Duration.ofMillis(500), Duration.ofSeconds(20), Duration.ofMinutes(2));

    public StoreRetry {
        if (maxTries < 1) {
            throw new IllegalArgumentException("maxTries must be at least 1: " + maxTries);
        }
        Objects.requireNonNull(baseDelay, "baseDelay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        Objects.requireNonNull(tryTimeout, "tryTimeout");
    }

    public StoreRetry withTryTimeout(Duration timeout) {
        return new StoreRetry(maxTries, baseDelay, maxDelay, timeout);
    }

    /** The pause before try {@code next} (2, 3, ...), for a store that retries by itself (Swift). */
    public Duration delayBefore(int next) {
        long millis = baseDelay.toMillis() << Math.min(20, Math.max(0, next - 2));
        return Duration.ofMillis(Math.min(millis, maxDelay.toMillis()));
    }
}
