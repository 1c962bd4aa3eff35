package io.etcdworkers.format;

import java.time.OffsetDateTime;
import java.util.Optional;

/**
 * What decoding one delta found.
 *
 * @param events number of events
 * @param revisions number of distinct revisions (transactions to replay)
 * @param firstRevision mod revision of the first event
 * @param lastRevision mod revision of the last event
 * @param jsonBytes size of the decompressed JSON (without the hash trailer)
 * @param largestGroupEvents most events in one revision
 * @param largestGroupBytes most key+value bytes in one revision
 * @param firstTime when the sidecar received the first event; empty without events
 * @param lastTime when it received the last one
 */
public record DeltaSummary(
        long events,
        long revisions,
        long firstRevision,
        long lastRevision,
        long jsonBytes,
        int largestGroupEvents,
        long largestGroupBytes,
        Optional<OffsetDateTime> firstTime,
        Optional<OffsetDateTime> lastTime) {}
