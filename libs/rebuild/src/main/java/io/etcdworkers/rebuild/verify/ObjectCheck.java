package io.etcdworkers.rebuild.verify;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.format.SnapshotObject;
import java.time.OffsetDateTime;
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
 */
public record ObjectCheck(
        SnapshotObject object,
        long events,
        long decompressedBytes,
        Optional<ErrorCode> failure,
        String message,
        Optional<OffsetDateTime> lastTime) {

    static ObjectCheck ok(
            SnapshotObject object, long events, long decompressedBytes, Optional<OffsetDateTime> lastTime) {
        return new ObjectCheck(object, events, decompressedBytes, Optional.empty(), "ok", lastTime);
    }

    static ObjectCheck failed(SnapshotObject object, ErrorCode code, String message) {
        return new ObjectCheck(object, 0, 0, Optional.of(code), message, Optional.empty());
    }

    public boolean passed() {
        return failure.isEmpty();
    }
}
