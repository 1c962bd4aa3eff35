package io.etcdworkers.restore.replay;

import java.time.Duration;

/**
 * What a replay did.
 *
 * @param deltas deltas replayed (including those wholly inside the base)
 * @param revisions revisions applied (one transaction each)
 * @param events events applied
 * @param skippedEvents events already in the base (first-delta overlap)
 * @param finalRevision the scratch etcd's revision at the end
 * @param largestGroupEvents most events in one revision
 * @param largestGroupBytes most key+value bytes in one revision
 * @param leasesGranted leases granted because deltas named them and the base lacked them
 * @param leasesRevoked granted leases revoked at the end because no key used them
 * @param etcdRestarts restarts to raise the request limits
 * @param defrag compaction and defragmentation
 * @param finalDbSize the database file size at the end of the replay
 * @param duration wall time of the replay
 */
public record ReplayStats(
        int deltas,
        long revisions,
        long events,
        long skippedEvents,
        long finalRevision,
        int largestGroupEvents,
        long largestGroupBytes,
        int leasesGranted,
        int leasesRevoked,
        int etcdRestarts,
        DefragStats defrag,
        long finalDbSize,
        Duration duration) {}
