package io.etcdworkers.rebuild.verify;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.SnapshotObject;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/**
 * The result of reading one snapshot object end to end.
 *
 * @param object the snapshot
 * @param events events in a delta (0 for a full snapshot)
 * @param decompressedBytes size after decompression
 * @param failure the code of what was wrong, if anything
 * @param message what was wrong, naming the object
 * @param lastTime when the backup sidecar received a delta's last event; empty for a full
 *     snapshot and a failed object
 * @param faults every fault of a full snapshot's bbolt structure, each naming its page; empty otherwise
 */
public record ObjectCheck(
        SnapshotObject object,
        long events,
        long decompressedBytes,
        Optional<ErrorCode> failure,
        String message,
        Optional<OffsetDateTime> lastTime,
        List<String> faults) {

    public ObjectCheck {
        faults = List.copyOf(faults);
    }

    static ObjectCheck ok(
            SnapshotObject object, long events, long decompressedBytes, Optional<OffsetDateTime> lastTime) {
        return new ObjectCheck(object, events, decompressedBytes, Optional.empty(), "ok", lastTime, List.of());
    }

    static ObjectCheck failed(SnapshotObject object, ErrorCode code, String message) {
        return new ObjectCheck(object, 0, 0, Optional.of(code), message, Optional.empty(), List.of());
    }

    /** A full snapshot whose bbolt structure is damaged though its hash matched: {@link ErrorCode#CORRUPT_OBJECT}. */
    static ObjectCheck damaged(SnapshotObject object, String message, List<String> faults) {
        return new ObjectCheck(object, 0, 0, Optional.of(ErrorCode.CORRUPT_OBJECT), message, Optional.empty(), faults);
    }

    public boolean passed() {
        return failure.isEmpty();
    }

    /** A finding about this object, or (the store or the local disk failing) the error itself, thrown. */
    static ObjectCheck failedOrRethrow(SnapshotObject object, WorkerException e) {
        // the store itself failing, or the local disk (writing the base for the estimate), is not
        // a finding about this object: stop and say so
        if (e.code() == ErrorCode.STORE_UNAVAILABLE
                || e.code() == ErrorCode.STORE_NOT_FOUND
                || e.code() == ErrorCode.LOCAL_IO) {
            throw e;
        }
        return failed(object, e.code(), e.getMessage());
    }
}
