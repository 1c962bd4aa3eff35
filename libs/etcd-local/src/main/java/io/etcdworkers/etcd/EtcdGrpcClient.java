package io.etcdworkers.etcd;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.CompactionRequest;
import io.etcd.jetcd.api.DefragmentRequest;
import io.etcd.jetcd.api.HashKVRequest;
import io.etcd.jetcd.api.HashKVResponse;
import io.etcd.jetcd.api.KVGrpc;
import io.etcd.jetcd.api.LeaseGrantRequest;
import io.etcd.jetcd.api.LeaseGrpc;
import io.etcd.jetcd.api.LeaseRevokeRequest;
import io.etcd.jetcd.api.LeaseTimeToLiveRequest;
import io.etcd.jetcd.api.LeaseTimeToLiveResponse;
import io.etcd.jetcd.api.MaintenanceGrpc;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.RangeResponse;
import io.etcd.jetcd.api.SnapshotRequest;
import io.etcd.jetcd.api.SnapshotResponse;
import io.etcd.jetcd.api.StatusRequest;
import io.etcd.jetcd.api.StatusResponse;
import io.etcd.jetcd.api.TxnRequest;
import io.etcd.jetcd.api.TxnResponse;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The calls the workers make to their scratch etcd, on etcd's own gRPC stubs (shipped in
 * jetcd-grpc) over one plaintext loopback channel, every call with a deadline.
 *
 * <p>Not jetcd's high-level client: measured here, it hands each call across several threads
 * and costs about 40 % more CPU per transaction than a blocking stub (dependencies.md), and a
 * replay is one transaction per source revision, strictly in sequence.
 */
public final class EtcdGrpcClient implements AutoCloseable {
    /** Inbound limit: range pages and snapshot chunks; one value can be tens of MB. */
    public static final int MAX_INBOUND_BYTES = 512 * 1024 * 1024;

    private final URI endpoint;
    private final ManagedChannel channel;
    private final EventLoopGroup eventLoop;
    private final Duration callTimeout;
    private final KVGrpc.KVBlockingStub kv;
    private final KVGrpc.KVStub kvAsync;
    private final MaintenanceGrpc.MaintenanceBlockingStub maintenance;
    private final LeaseGrpc.LeaseBlockingStub lease;

    private EtcdGrpcClient(URI endpoint, ManagedChannel channel, EventLoopGroup eventLoop, Duration callTimeout) {
        this.endpoint = endpoint;
        this.channel = channel;
        this.eventLoop = eventLoop;
        this.callTimeout = callTimeout;
        this.kv = KVGrpc.newBlockingStub(channel);
        this.kvAsync = KVGrpc.newStub(channel);
        this.maintenance = MaintenanceGrpc.newBlockingStub(channel);
        this.lease = LeaseGrpc.newBlockingStub(channel);
    }

    /** Connects to {@code http://127.0.0.1:PORT}; calls fail after {@code callTimeout}. */
    public static EtcdGrpcClient connect(URI endpoint, Duration callTimeout) {
        // A loop of its own, not gRPC's shared one: that one outlives its last channel by a second,
        // its thread waiting in epoll, and the JVM's exit then waits 300 ms for a thread in native code.
        EventLoopGroup eventLoop = new NioEventLoopGroup(1, new DefaultThreadFactory("etcd-grpc", true));
        ManagedChannel channel = NettyChannelBuilder.forAddress(endpoint.getHost(), endpoint.getPort())
                .eventLoopGroup(eventLoop)
                .channelType(NioSocketChannel.class)
                .usePlaintext()
                .maxInboundMessageSize(MAX_INBOUND_BYTES)
                .directExecutor()
                .build();
        return new EtcdGrpcClient(endpoint, channel, eventLoop, callTimeout);
    }

    public URI endpoint() {
        return endpoint;
    }

    /** The channel, for streaming calls (lease keep-alive). */
    public ManagedChannel channel() {
        return channel;
    }

    public TxnResponse txn(TxnRequest request) {
        return call(
                "txn",
                () -> kv.withDeadlineAfter(callTimeout.toMillis(), TimeUnit.MILLISECONDS)
                        .txn(request));
    }

    /**
     * Sends a transaction without waiting for it. The channel runs callbacks on its event-loop
     * thread ({@code directExecutor}), so {@code answer} must not block; a transaction sent from
     * there leaves at once, without waking another thread. Failures come as
     * {@link StatusRuntimeException}s: {@link #failure} turns them into the worker's codes.
     */
    public void txnAsync(TxnRequest request, StreamObserver<TxnResponse> answer) {
        kvAsync.withDeadlineAfter(callTimeout.toMillis(), TimeUnit.MILLISECONDS).txn(request, answer);
    }

    public RangeResponse range(RangeRequest request) {
        return call(
                "range",
                () -> kv.withDeadlineAfter(callTimeout.toMillis(), TimeUnit.MILLISECONDS)
                        .range(request));
    }

    public StatusResponse status() {
        return call(
                "status",
                () -> maintenance
                        .withDeadlineAfter(callTimeout.toMillis(), TimeUnit.MILLISECONDS)
                        .status(StatusRequest.getDefaultInstance()));
    }

    /**
     * {@code Maintenance.HashKV} at {@code revision} (0: the current one): etcd's CRC-32C of its
     * {@code key} bucket, read from its database.
     */
    public HashKVResponse hashKv(long revision) {
        return call(
                "hash kv",
                () -> maintenance
                        .withDeadlineAfter(callTimeout.toMillis(), TimeUnit.MILLISECONDS)
                        .hashKV(HashKVRequest.newBuilder().setRevision(revision).build()));
    }

    /**
     * Physical compaction at {@code revision}: returns when etcd has removed the old revisions.
     *
     * @return false when etcd was already compacted at (or past) that revision: nothing to do
     */
    public boolean compact(long revision, Duration timeout) {
        try {
            kv.withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .compact(CompactionRequest.newBuilder()
                            .setRevision(revision)
                            .setPhysical(true)
                            .build());
            return true;
        } catch (StatusRuntimeException e) {
            // etcd answers OUT_OF_RANGE for "required revision has been compacted"
            if (e.getStatus().getCode() == Status.Code.OUT_OF_RANGE) {
                return false;
            }
            throw failure("compact", e);
        }
    }

    public void defragment(Duration timeout) {
        call(
                "defragment",
                () -> maintenance
                        .withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
                        .defragment(DefragmentRequest.getDefaultInstance()));
    }

    /**
     * Grants a lease with a given id (as the source cluster had it).
     *
     * @return false when a lease with that id exists already
     */
    public boolean leaseGrant(long id, long ttlSeconds) {
        try {
            lease.withDeadlineAfter(callTimeout.toMillis(), TimeUnit.MILLISECONDS)
                    .leaseGrant(LeaseGrantRequest.newBuilder()
                            .setID(id)
                            .setTTL(ttlSeconds)
                            .build());
            return true;
        } catch (StatusRuntimeException e) {
            // etcd answers FAILED_PRECONDITION for "lease already exists"
            if (e.getStatus().getCode() == Status.Code.FAILED_PRECONDITION) {
                return false;
            }
            throw failure("lease grant", e);
        }
    }

    public void leaseRevoke(long id) {
        call(
                "lease revoke",
                () -> lease.withDeadlineAfter(callTimeout.toMillis(), TimeUnit.MILLISECONDS)
                        .leaseRevoke(LeaseRevokeRequest.newBuilder().setID(id).build()));
    }

    public LeaseTimeToLiveResponse leaseTimeToLive(long id, boolean keys) {
        return call(
                "lease time-to-live",
                () -> lease.withDeadlineAfter(callTimeout.toMillis(), TimeUnit.MILLISECONDS)
                        .leaseTimeToLive(LeaseTimeToLiveRequest.newBuilder()
                                .setID(id)
                                .setKeys(keys)
                                .build()));
    }

    /** The ids of every lease etcd holds. */
    public long[] leaseIds() {
        return call("lease list", () -> LeaseList.ids(channel, callTimeout));
    }

    /**
     * Streams {@code Maintenance.Snapshot} (the database followed by its SHA-256, as etcd sends
     * it) into {@code out}; returns the bytes written.
     */
    public long snapshot(OutputStream out, Duration timeout) throws IOException {
        Iterator<SnapshotResponse> chunks = call(
                "snapshot",
                () -> maintenance
                        .withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
                        .snapshot(SnapshotRequest.getDefaultInstance()));
        long written = 0;
        try {
            while (chunks.hasNext()) {
                ByteString blob = chunks.next().getBlob();
                blob.writeTo(out);
                written += blob.size();
            }
        } catch (StatusRuntimeException e) {
            throw failure("snapshot", e);
        }
        return written;
    }

    private <T> T call(String what, Supplier<T> rpc) {
        try {
            return rpc.get();
        } catch (StatusRuntimeException e) {
            throw failure(what, e);
        }
    }

    /** Maps a gRPC failure to the worker's codes; the quota gets its own, with advice. */
    public WorkerException failure(String what, StatusRuntimeException e) {
        String description =
                e.getStatus().getDescription() == null ? "" : e.getStatus().getDescription();
        if (description.contains("database space exceeded")) {
            return new WorkerException(
                    ErrorCode.ETCD_QUOTA_EXCEEDED,
                    "scratch etcd at " + endpoint
                            + " is out of space (" + description + ") during " + what
                            + ": raise --embedded-etcd-quota-bytes, or defragment more often "
                            + "(--defrag-every-events, --defrag-db-size-bytes)",
                    e);
        }
        if (e.getStatus().getCode() == Status.Code.UNAVAILABLE) {
            return new WorkerException(
                    ErrorCode.ETCD_FAILURE,
                    "scratch etcd at " + endpoint + " is not reachable during " + what
                            + " (did the etcd process die?): " + description,
                    e);
        }
        if (e.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED) {
            return new WorkerException(
                    ErrorCode.ETCD_FAILURE,
                    "scratch etcd at " + endpoint + " did not answer " + what + " in time (hung or overloaded): "
                            + description,
                    e);
        }
        return new WorkerException(
                ErrorCode.ETCD_FAILURE,
                "scratch etcd at " + endpoint + " failed " + what + ": "
                        + e.getStatus().getCode() + " " + description,
                e);
    }

    @Override
    public void close() {
        channel.shutdownNow();
        try {
            channel.awaitTermination(5, TimeUnit.SECONDS);
            eventLoop.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            eventLoop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            Thread.currentThread().interrupt();
        }
    }
}
