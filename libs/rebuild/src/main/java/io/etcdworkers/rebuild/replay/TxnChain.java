package io.etcdworkers.rebuild.replay;

import io.etcd.jetcd.api.TxnRequest;
import io.etcd.jetcd.api.TxnResponse;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.EtcdGrpcClient;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.ArrayDeque;
import java.util.function.BiFunction;

/**
 * The replay's transactions, one in flight at a time and in the order given, without the replay
 * thread waiting for each answer: the next one leaves from gRPC's event-loop thread the moment
 * etcd answers the one before, while the replay thread builds those that follow. A blocking call
 * per revision costs two thread hand-offs in this JVM on every transaction; here the replay
 * thread wakes once per half queue. Every answer must name the revision the source had.
 *
 * <p>A failure stops the chain (nothing queued after it is sent) and is thrown to the caller at
 * its next {@link #submit} or {@link #drain}, explained by the function given, which runs on the
 * caller's thread. Before anything else talks to etcd in a way that depends on its revision
 * (compaction, a restart, the final status), the caller drains.
 */
final class TxnChain {
    /** Queue limits: a few hundred small transactions, or a few MiB of large ones. */
    static final int MAX_QUEUED = 256;

    static final long MAX_QUEUED_BYTES = 8L << 20;

    /** One source revision as a transaction, with what a failure message names. */
    record Txn(TxnRequest request, String objectName, long revision, int events) {}

    private final Object lock = new Object();
    private final ArrayDeque<Txn> queue = new ArrayDeque<>();
    private final BiFunction<Txn, WorkerException, WorkerException> explain;
    private long queuedBytes;
    private boolean sending;
    private boolean waitingForRoom;
    private EtcdGrpcClient client;
    private Txn failedTxn;
    private WorkerException failure;
    private WorkerException explained;
    private long applied;
    private long sent;

    /**
     * @param revision the revision etcd stands at now
     * @param explain turns the failure of one transaction into the exception thrown to the caller
     */
    TxnChain(long revision, BiFunction<Txn, WorkerException, WorkerException> explain) {
        this.applied = revision;
        this.explain = explain;
    }

    /**
     * Sends {@code txn} through {@code client} now when nothing is in flight, else queues it;
     * waits while the queue is full. {@code client} is used until the chain is idle again.
     */
    void submit(EtcdGrpcClient client, Txn txn) throws InterruptedException {
        synchronized (lock) {
            while (failure == null && sending && full()) {
                waitingForRoom = true;
                lock.wait();
            }
            if (failure == null) {
                if (sending) {
                    queue.add(txn);
                    queuedBytes += txn.request().getSerializedSize();
                } else {
                    sending = true;
                    this.client = client;
                    send(txn);
                }
                return;
            }
        }
        throw explained();
    }

    /** Waits until every transaction given was answered; returns the revision etcd then stands at. */
    long drain() throws InterruptedException {
        synchronized (lock) {
            while (failure == null && sending) {
                lock.wait();
            }
            if (failure == null) {
                return applied;
            }
        }
        throw explained();
    }

    /** The last revision etcd confirmed. */
    long applied() {
        synchronized (lock) {
            return applied;
        }
    }

    /** Transactions sent so far. */
    long sent() {
        synchronized (lock) {
            return sent;
        }
    }

    private boolean full() {
        return queue.size() >= MAX_QUEUED || queuedBytes >= MAX_QUEUED_BYTES;
    }

    /**
     * The failure as thrown, explained once, outside the lock (the explanation may read etcd's
     * log). Only the caller's thread gets here, after the failure was set for good.
     */
    private WorkerException explained() {
        if (explained == null) {
            explained = explain.apply(failedTxn, failure);
        }
        return explained;
    }

    /** Called with the lock held, on the caller's thread or the event loop's. */
    private void send(Txn txn) {
        sent++;
        StreamObserver<TxnResponse> answer = new StreamObserver<>() {
            private TxnResponse response;

            @Override
            public void onNext(TxnResponse value) {
                response = value;
            }

            @Override
            public void onError(Throwable t) {
                answered(txn, null, t);
            }

            @Override
            public void onCompleted() {
                answered(txn, response, null);
            }
        };
        try {
            client.txnAsync(txn.request(), answer);
        } catch (RuntimeException e) {
            answered(txn, null, e);
        }
    }

    private void answered(Txn txn, TxnResponse response, Throwable error) {
        synchronized (lock) {
            if (error != null) {
                fail(
                        txn,
                        error instanceof StatusRuntimeException s
                                ? client.failure("txn", s)
                                : error instanceof WorkerException w
                                        ? w
                                        : client.failure(
                                                "txn",
                                                Status.fromThrowable(error).asRuntimeException()));
            } else if (response == null) {
                fail(
                        txn,
                        new WorkerException(
                                ErrorCode.ETCD_FAILURE,
                                "scratch etcd at " + client.endpoint() + " closed the txn call without an answer"));
            } else if (response.getHeader().getRevision() != txn.revision()) {
                fail(
                        txn,
                        new WorkerException(
                                ErrorCode.BACKUP_INCONSISTENT,
                                String.format(
                                        "%s: after replaying revision %d etcd is at revision %d (%d events): the delta does not "
                                                + "continue the restored state",
                                        txn.objectName(),
                                        txn.revision(),
                                        response.getHeader().getRevision(),
                                        txn.events())));
            } else {
                applied = txn.revision();
                Txn next = queue.poll();
                if (next != null) {
                    queuedBytes -= next.request().getSerializedSize();
                    // wake a waiting submit at half a queue, not for every answer
                    if (waitingForRoom && queue.size() <= MAX_QUEUED / 2 && queuedBytes <= MAX_QUEUED_BYTES / 2) {
                        waitingForRoom = false;
                        lock.notifyAll();
                    }
                    send(next);
                    return;
                }
                sending = false;
            }
            lock.notifyAll();
        }
    }

    private void fail(Txn txn, WorkerException e) {
        if (failure == null) {
            failure = e;
            failedTxn = txn;
        }
        queue.clear();
        queuedBytes = 0;
        sending = false;
    }
}
