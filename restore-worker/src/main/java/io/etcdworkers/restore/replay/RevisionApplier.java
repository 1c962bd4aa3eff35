package io.etcdworkers.restore.replay;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.DeleteRangeRequest;
import io.etcd.jetcd.api.PutRequest;
import io.etcd.jetcd.api.RequestOp;
import io.etcd.jetcd.api.TxnRequest;
import io.etcd.jetcd.api.TxnResponse;
import io.etcdworkers.restore.error.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.etcd.EtcdGrpcClient;
import io.etcdworkers.restore.snapshot.DeltaEvent;
import io.etcdworkers.restore.snapshot.EventType;
import io.etcdworkers.restore.snapshot.RevisionGroup;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Applies revision groups to the scratch etcd, one transaction per source revision, and checks
 * after each that etcd now stands at exactly that revision: every create revision, mod revision
 * and version then matches the source.
 *
 * <p>Groups at or below the base database's revision are skipped (the base snapshot already
 * holds them: the first delta may overlap it). Above it, revisions must follow each other
 * without a gap; anything else is an inconsistent backup, reported with the object and both
 * revisions.
 */
final class RevisionApplier {
    private final Supplier<EtcdGrpcClient> client;
    private final LeaseKeeper leases;
    private final long baseRevision;
    private long currentRevision;
    private long appliedGroups;
    private long appliedEvents;
    private long skippedEvents;

    RevisionApplier(Supplier<EtcdGrpcClient> client, LeaseKeeper leases, long baseRevision) {
        this.client = client;
        this.leases = leases;
        this.baseRevision = baseRevision;
        this.currentRevision = baseRevision;
    }

    /** @return the number of events applied (0 when the group was already in the base) */
    int apply(String objectName, RevisionGroup group) {
        long revision = group.revision();
        if (revision <= baseRevision) {
            skippedEvents += group.events().size();
            return 0;
        }
        if (revision != currentRevision + 1) {
            throw new WorkerException(ErrorCode.BACKUP_INCONSISTENT, revision > currentRevision
                    ? String.format("%s: next revision is %d but etcd is at %d: revisions %d..%d are missing",
                            objectName, revision, currentRevision, currentRevision + 1, revision - 1)
                    : String.format("%s: revision %d is already applied (etcd is at %d): deltas overlap",
                            objectName, revision, currentRevision));
        }
        TxnResponse response = client.get().txn(txnOf(objectName, group));
        long now = response.getHeader().getRevision();
        if (now != revision) {
            throw new WorkerException(ErrorCode.BACKUP_INCONSISTENT, String.format(
                    "%s: after replaying revision %d etcd is at revision %d (%d events): the delta does not "
                            + "continue the restored state", objectName, revision, now, group.events().size()));
        }
        currentRevision = now;
        appliedGroups++;
        appliedEvents += group.events().size();
        return group.events().size();
    }

    private TxnRequest txnOf(String objectName, RevisionGroup group) {
        TxnRequest.Builder txn = TxnRequest.newBuilder();
        Set<ByteString> keys = new HashSet<>();
        for (DeltaEvent event : group.events()) {
            ByteString key = ByteString.copyFrom(event.key());
            if (!keys.add(key)) {
                // etcd refuses such a txn; the source never produced one, so the delta is bad
                throw new WorkerException(ErrorCode.CORRUPT_OBJECT, String.format(
                        "%s: revision %d names key %s twice", objectName, group.revision(),
                        new String(event.key(), StandardCharsets.UTF_8)));
            }
            if (event.type() == EventType.PUT) {
                leases.ensure(event.lease());
                txn.addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder()
                        .setKey(key).setValue(ByteString.copyFrom(event.value())).setLease(event.lease())));
            } else {
                txn.addSuccess(RequestOp.newBuilder().setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(key)));
            }
        }
        return txn.build();
    }

    /** Checks the revision after a whole delta: its last, or the base's when the delta was all in it. */
    void checkDeltaEnd(FetchedDelta delta) {
        long expected = Math.max(delta.object().name().lastRevision(), baseRevision);
        if (currentRevision != expected) {
            throw new WorkerException(ErrorCode.BACKUP_INCONSISTENT, String.format(
                    "%s: after replaying it etcd is at revision %d but the delta ends at %d",
                    delta.object().key(), currentRevision, expected));
        }
    }

    long currentRevision() {
        return currentRevision;
    }

    long appliedGroups() {
        return appliedGroups;
    }

    long appliedEvents() {
        return appliedEvents;
    }

    long skippedEvents() {
        return skippedEvents;
    }
}
