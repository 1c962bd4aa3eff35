package io.etcdworkers.rebuild.replay;

import io.etcd.jetcd.api.StatusResponse;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.EtcdGrpcClient;
import io.etcdworkers.rebuild.engine.DefragStats;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the scratch etcd small: when the {@link DefragPolicy} fires, compacts at the current
 * revision (physically) and defragments, logging sizes before and after and the time taken.
 * A failed defragmentation is counted and retried at the next trigger; only running out of
 * quota fails the restore (the next transaction reports it).
 */
final class Defragmenter {
    private static final Logger LOG = LoggerFactory.getLogger(Defragmenter.class);

    private final Supplier<EtcdGrpcClient> client;
    private final DefragPolicy policy;
    private final Duration timeout;
    private final Clock clock;
    private long eventsSince;
    private int deltasSince;
    private Instant since;
    private int count;
    private int failed;
    private long reclaimed;
    private Duration time = Duration.ZERO;
    private long peakDbSize;
    private long lastDbSize;
    private long lastInUse;
    private String lastTrigger = "none";

    Defragmenter(Supplier<EtcdGrpcClient> client, DefragPolicy policy, Duration timeout, Clock clock) {
        this.client = client;
        this.policy = policy;
        this.timeout = timeout;
        this.clock = clock;
        this.since = clock.instant();
    }

    void eventsApplied(int events) {
        eventsSince += events;
    }

    void deltaDone() {
        deltasSince++;
    }

    /** Whether the events since the last run call for a {@link #check}: no call to etcd. */
    boolean eventsDue() {
        return policy.eventsTriggerReached(eventsSince);
    }

    /** A full check (after a delta): asks etcd for its sizes and runs the policy. */
    void check(long revision) {
        StatusResponse status = status();
        Optional<DefragPolicy.Trigger> trigger = policy.decide(new DefragPolicy.Observation(
                eventsSince,
                deltasSince,
                status.getDbSize(),
                status.getDbSizeInUse(),
                Duration.between(since, clock.instant())));
        trigger.ifPresent(t -> run(t.name().toLowerCase(Locale.ROOT), revision, status));
    }

    /** Compacts at {@code revision} and defragments now, whatever the policy says. */
    void run(String why, long revision, StatusResponse before) {
        Instant started = clock.instant();
        try {
            client.get().compact(revision, timeout);
        } catch (WorkerException e) {
            failed(why, started, e);
            return;
        }
        try {
            client.get().defragment(timeout);
        } catch (WorkerException e) {
            failed(why, started, e);
            return;
        }
        StatusResponse after = status();
        Duration took = Duration.between(started, clock.instant());
        count++;
        reclaimed += Math.max(0, before.getDbSize() - after.getDbSize());
        time = time.plus(took);
        lastTrigger = why;
        eventsSince = 0;
        deltasSince = 0;
        since = clock.instant();
        LOG.atInfo()
                .setMessage("compacted and defragmented")
                .addKeyValue("trigger", why)
                .addKeyValue("revision", revision)
                .addKeyValue("dbSizeBefore", before.getDbSize())
                .addKeyValue("inUseBefore", before.getDbSizeInUse())
                .addKeyValue("dbSizeAfter", after.getDbSize())
                .addKeyValue("inUseAfter", after.getDbSizeInUse())
                .addKeyValue("ms", took.toMillis())
                .log();
    }

    private void failed(String why, Instant started, WorkerException e) {
        if (e.code() == ErrorCode.ETCD_QUOTA_EXCEEDED) {
            throw e;
        }
        failed++;
        time = time.plus(Duration.between(started, clock.instant()));
        LOG.warn("defragmentation failed, retrying at the next trigger trigger={} error={}", why, e.getMessage());
    }

    StatusResponse status() {
        StatusResponse status = client.get().status();
        peakDbSize = Math.max(peakDbSize, status.getDbSize());
        lastDbSize = status.getDbSize();
        lastInUse = status.getDbSizeInUse();
        return status;
    }

    long lastDbSize() {
        return lastDbSize;
    }

    long lastInUse() {
        return lastInUse;
    }

    DefragStats stats() {
        return new DefragStats(count, failed, reclaimed, time, peakDbSize, lastTrigger);
    }
}
