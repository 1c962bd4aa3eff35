package io.etcdworkers.rebuild.engine;

import io.etcdworkers.rebuild.sequence.SequenceStats;
import java.time.Duration;

/**
 * What an engine did to build the database.
 *
 * @param sequence the revisions applied, counted by the shared chain rules
 * @param leasesGranted leases granted (replay) or written (offline) because keys name them and the base lacked them
 * @param finalDbSize the database size at the end of the build
 * @param duration wall time of applying the deltas (and, offline, of writing the database)
 * @param work what the engine did besides: the replay's {@link ReplayWork} in etcd, or the offline
 *     engine's {@link FoldWork}
 */
public record RebuildStats(
        SequenceStats sequence, int leasesGranted, long finalDbSize, Duration duration, EngineWork work) {}
