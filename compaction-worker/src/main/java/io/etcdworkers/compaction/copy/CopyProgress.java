package io.etcdworkers.compaction.copy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A progress line every few seconds while objects are copied: objects and bytes done of the total, and the rate. */
final class CopyProgress implements AutoCloseable {
    static final Duration EVERY = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(CopyProgress.class);

    private final long totalObjects;
    private final long totalBytes;
    private final Clock clock;
    private final Instant started;
    private final AtomicLong objects = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final ScheduledExecutorService timer;

    CopyProgress(long totalObjects, long totalBytes, Clock clock) {
        this.totalObjects = totalObjects;
        this.totalBytes = totalBytes;
        this.clock = clock;
        this.started = clock.instant();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "copy-progress");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::log, EVERY.toMillis(), EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Bytes read from the source so far (each object's once). */
    void bytes(long n) {
        bytes.addAndGet(n);
    }

    void objectDone() {
        objects.incrementAndGet();
    }

    long bytesDone() {
        return bytes.get();
    }

    void log() {
        double seconds =
                Math.max(0.001, Duration.between(started, clock.instant()).toMillis() / 1000.0);
        LOG.info(String.format(
                Locale.ROOT,
                "copy: %d/%d objects, %d/%d bytes, %.1f MB/s",
                objects.get(),
                totalObjects,
                bytes.get(),
                totalBytes,
                bytes.get() / seconds / 1e6));
    }

    @Override
    public void close() {
        timer.shutdownNow();
        log();
    }
}
