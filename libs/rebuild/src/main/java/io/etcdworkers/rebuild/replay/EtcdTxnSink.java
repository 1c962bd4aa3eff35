package io.etcdworkers.rebuild.replay;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.DeleteRangeRequest;
import io.etcd.jetcd.api.PutRequest;
import io.etcd.jetcd.api.RequestOp;
import io.etcd.jetcd.api.TxnRequest;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.LogTail;
import io.etcdworkers.etcd.ScratchEtcd;
import io.etcdworkers.files.DiskFull;
import io.etcdworkers.format.DeltaEvent;
import io.etcdworkers.format.EventType;
import io.etcdworkers.format.RevisionGroup;
import io.etcdworkers.rebuild.fetch.FetchedDelta;
import io.etcdworkers.rebuild.sequence.RevisionSink;
import io.etcdworkers.rebuild.verify.KeySample;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replay's sink: one transaction per source revision into the scratch etcd, sent through a
 * {@link TxnChain} (one in flight, in order, the replay thread not waiting for each), each
 * answer checked to name exactly that revision, so every create revision, mod revision and
 * version matches the source. Before a delta, etcd's request limits are raised when its largest
 * revision would not fit; after each revision and delta, the defragmentation policy may run.
 * Whatever depends on etcd's revision (a restart, compaction, the end) drains the chain first.
 */
final class EtcdTxnSink implements RevisionSink {
    private static final Logger LOG = LoggerFactory.getLogger(EtcdTxnSink.class);

    private final ScratchEtcd etcd;
    private final LeaseKeeper leases;
    private final Defragmenter defrag;
    private final KeySample keys;
    private final TxnChain chain;

    EtcdTxnSink(ScratchEtcd etcd, LeaseKeeper leases, Defragmenter defrag, long baseRevision, KeySample keys) {
        this.etcd = etcd;
        this.leases = leases;
        this.defrag = defrag;
        this.keys = keys;
        this.chain = new TxnChain(baseRevision, this::explain);
    }

    @Override
    public void deltaStarted(FetchedDelta delta) {
        if (!etcd.fits(delta.summary().largestGroupBytes(), delta.summary().largestGroupEvents())) {
            drain(); // the restart must not cut transactions in flight
            etcd.ensureFits(delta.summary().largestGroupBytes(), delta.summary().largestGroupEvents());
        }
        LOG.atDebug()
                .setMessage("delta start")
                .addKeyValue("object", delta.object().key())
                .addKeyValue("events", delta.summary().events())
                .log();
    }

    @Override
    public void apply(String objectName, RevisionGroup group) {
        TxnRequest txn = txnOf(group);
        try {
            chain.submit(
                    etcd.client(),
                    new TxnChain.Txn(
                            txn, objectName, group.revision(), group.events().size()));
        } catch (InterruptedException e) {
            throw interrupted(e);
        }
        for (DeltaEvent e : group.events()) {
            if (e.type() == EventType.PUT) {
                keys.offer(e.key());
            }
        }
        defrag.eventsApplied(group.events().size());
        if (defrag.eventsDue()) {
            defrag.check(drain());
        }
    }

    @Override
    public void deltaDone(long atRevision) {
        drain();
        defrag.deltaDone();
        defrag.check(atRevision);
    }

    /** Waits for every transaction sent; returns etcd's revision. Call before reading the end state. */
    long drain() {
        try {
            return chain.drain();
        } catch (InterruptedException e) {
            throw interrupted(e);
        }
    }

    @Override
    public String progressDetail() {
        return String.format(
                "dbSize=%d dbInUse=%d defrags=%d lastDefrag=%s",
                defrag.lastDbSize(),
                defrag.lastInUse(),
                defrag.stats().count(),
                defrag.stats().lastTrigger());
    }

    private static WorkerException interrupted(InterruptedException e) {
        Thread.currentThread().interrupt();
        return new WorkerException(ErrorCode.INTERRUPTED, "interrupted while replaying into the scratch etcd", e);
    }

    /** A failed call because etcd died says so, with its last log lines, the delta and the revision. */
    private WorkerException explain(TxnChain.Txn txn, WorkerException e) {
        if (e.code() != ErrorCode.ETCD_FAILURE && e.code() != ErrorCode.ETCD_QUOTA_EXCEEDED) {
            return e;
        }
        String state = etcd.process().isAlive()
                ? "etcd is still running"
                : "the etcd process exited; its last output: "
                        + LogTail.excerpt(etcd.process().logFile(), 10);
        if (DiskFull.says(state) || DiskFull.says(e.getMessage())) {
            // etcd died (or refused) for lack of space: the disk's fault, and the message says which one
            return new WorkerException(
                    ErrorCode.LOCAL_IO,
                    String.format(
                            "replaying %s failed at revision %d (etcd at %d): %s; %s; %s",
                            txn.objectName(),
                            txn.revision(),
                            chain.applied(),
                            DiskFull.describe(
                                    state + "\n" + e.getMessage(),
                                    etcd.process().dataDir(),
                                    etcd.process().walDir()),
                            e.getMessage(),
                            state),
                    e);
        }
        return new WorkerException(
                e.code(),
                String.format(
                        "replaying %s failed at revision %d (etcd at %d): %s; %s",
                        txn.objectName(), txn.revision(), chain.applied(), e.getMessage(), state),
                e);
    }

    private TxnRequest txnOf(RevisionGroup group) {
        TxnRequest.Builder txn = TxnRequest.newBuilder();
        for (DeltaEvent event : group.events()) {
            ByteString key = ByteString.copyFrom(event.key());
            if (event.type() == EventType.PUT) {
                leases.ensure(event.lease());
                txn.addSuccess(RequestOp.newBuilder()
                        .setRequestPut(PutRequest.newBuilder()
                                .setKey(key)
                                .setValue(ByteString.copyFrom(event.value()))
                                .setLease(event.lease())));
            } else {
                txn.addSuccess(RequestOp.newBuilder()
                        .setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(key)));
            }
        }
        return txn.build();
    }
}
