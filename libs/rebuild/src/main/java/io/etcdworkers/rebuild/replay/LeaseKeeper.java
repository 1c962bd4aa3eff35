package io.etcdworkers.rebuild.replay;

import io.etcd.jetcd.api.LeaseGrpc;
import io.etcd.jetcd.api.LeaseKeepAliveRequest;
import io.etcd.jetcd.api.LeaseKeepAliveResponse;
import io.etcdworkers.etcd.EtcdGrpcClient;
import io.grpc.stub.StreamObserver;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the scratch etcd's leases alive while deltas are replayed, so etcd never expires a
 * lease mid-restore and deletes its keys behind the replay's back (etcd-backup-restore issue
 * #1045, where the revision then moves and the restore fails).
 *
 * <p>Leases of the base snapshot are tracked from the start. A delta's PUT may name a lease the
 * base does not have (granted after the snapshot): it is granted with the same id and
 * {@code grantTtl}, so keys keep their lease id as in the source. At the end, granted leases
 * that no key uses any more (their keys were deleted, e.g. by a revoke in the source) are
 * revoked, which changes no revision.
 */
public final class LeaseKeeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);
    private static final long TICK_MILLIS = 1000;

    private final Supplier<EtcdGrpcClient> client;
    private final long grantTtlSeconds;
    private final Map<Long, Long> ttlById = new ConcurrentHashMap<>();
    private final Map<Long, Long> nextDueMillis = new ConcurrentHashMap<>();
    private final Set<Long> granted = new HashSet<>();
    private final ScheduledExecutorService ticker;
    private volatile StreamObserver<LeaseKeepAliveRequest> stream;
    private volatile EtcdGrpcClient streamClient;

    /**
     * @param client the current client (it changes when the scratch etcd is restarted)
     * @param grantTtlSeconds TTL of leases granted during the replay
     */
    public LeaseKeeper(Supplier<EtcdGrpcClient> client, long grantTtlSeconds) {
        this.client = client;
        this.grantTtlSeconds = grantTtlSeconds;
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lease-keepalive");
            t.setDaemon(true);
            return t;
        });
    }

    /** Tracks every lease the scratch etcd holds now (those of the base snapshot). */
    public void trackExisting() {
        for (long id : client.get().leaseIds()) {
            long ttl = client.get().leaseTimeToLive(id, false).getGrantedTTL();
            track(id, ttl);
        }
        if (!ttlById.isEmpty()) {
            LOG.info("keeping base leases alive during the replay leases={}", ttlById.size());
        }
        ticker.scheduleWithFixedDelay(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Makes sure lease {@code id} exists before a PUT uses it. */
    public void ensure(long id) {
        if (id == 0 || ttlById.containsKey(id)) {
            return;
        }
        if (client.get().leaseGrant(id, grantTtlSeconds)) {
            granted.add(id);
            track(id, grantTtlSeconds);
            LOG.debug("granted lease missing from the base id={} ttl={}", Long.toHexString(id), grantTtlSeconds);
        } else {
            track(id, client.get().leaseTimeToLive(id, false).getGrantedTTL());
        }
    }

    private void track(long id, long ttlSeconds) {
        ttlById.put(id, Math.max(ttlSeconds, 1));
        nextDueMillis.put(id, System.currentTimeMillis() + dueAfterMillis(ttlSeconds));
    }

    private static long dueAfterMillis(long ttlSeconds) {
        return Math.max(500, ttlSeconds * 1000 / 3);
    }

    /** Leases granted during the replay (not in the base). */
    public int grantedCount() {
        return granted.size();
    }

    public int trackedCount() {
        return ttlById.size();
    }

    /**
     * Revokes the leases granted during the replay that no key is attached to any more.
     *
     * @return how many were revoked
     */
    public int revokeUnusedGranted() {
        int revoked = 0;
        for (long id : granted) {
            if (client.get().leaseTimeToLive(id, true).getKeysCount() == 0) {
                client.get().leaseRevoke(id);
                ttlById.remove(id);
                revoked++;
            }
        }
        return revoked;
    }

    private void tick() {
        try {
            long now = System.currentTimeMillis();
            for (Map.Entry<Long, Long> due : nextDueMillis.entrySet()) {
                if (now >= due.getValue() && ttlById.containsKey(due.getKey())) {
                    send(due.getKey());
                    due.setValue(now + dueAfterMillis(ttlById.get(due.getKey())));
                }
            }
        } catch (RuntimeException e) {
            // the next tick retries on a fresh stream; a lease lost for good shows as a revision mismatch
            LOG.warn("lease keep-alive failed, retrying: {}", e.toString());
            stream = null;
        }
    }

    private void send(long id) {
        EtcdGrpcClient current = client.get();
        if (stream == null || streamClient != current) {
            streamClient = current;
            stream = LeaseGrpc.newStub(current.channel()).leaseKeepAlive(new StreamObserver<>() {
                @Override
                public void onNext(LeaseKeepAliveResponse response) {
                    if (response.getTTL() <= 0) {
                        LOG.warn("lease expired despite keep-alive id={}", Long.toHexString(response.getID()));
                    }
                }

                @Override
                public void onError(Throwable t) {
                    stream = null;
                }

                @Override
                public void onCompleted() {
                    stream = null;
                }
            });
        }
        stream.onNext(LeaseKeepAliveRequest.newBuilder().setID(id).build());
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        StreamObserver<LeaseKeepAliveRequest> s = stream;
        if (s != null) {
            try {
                s.onCompleted();
            } catch (RuntimeException e) {
                LOG.debug("closing the keep-alive stream failed: {}", e.toString());
            }
        }
    }
}
