package io.etcdworkers.workercli;

import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.rebuild.replay.DefragPolicyConfig;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The defragmentation policy flags, shared by the restore and compaction commands. */
public final class DefragOptions {

    @Option(
            names = WorkerFlags.DEFRAG_EVERY_EVENTS,
            paramLabel = "N",
            description =
                    "Compact and defragment the scratch etcd after this many events (0: off). Default: ${DEFAULT-VALUE}.")
    long everyEvents = DefragPolicyConfig.DEFAULT_EVERY_EVENTS;

    @Option(
            names = WorkerFlags.DEFRAG_EVERY_DELTAS,
            paramLabel = "N",
            description =
                    "Compact and defragment the scratch etcd after this many deltas (0: off). Default: ${DEFAULT-VALUE}.")
    int everyDeltas = DefragPolicyConfig.DEFAULT_EVERY_DELTAS;

    @Option(
            names = WorkerFlags.DEFRAG_DB_SIZE_BYTES,
            paramLabel = "BYTES",
            converter = ByteSizeConverter.class,
            description =
                    "Compact and defragment when the scratch database file reaches this size (0: off). Default: ${DEFAULT-VALUE}.")
    long dbSizeBytes = DefragPolicyConfig.DEFAULT_DB_SIZE_BYTES;

    @Option(
            names = WorkerFlags.DEFRAG_FRAGMENTATION_RATIO,
            paramLabel = "RATIO",
            description =
                    "Compact and defragment when 1 - dbSizeInUse/dbSize reaches this, for databases of 64 MiB or more (0: off). Default: ${DEFAULT-VALUE}.")
    double fragmentationRatio = DefragPolicyConfig.DEFAULT_FRAGMENTATION_RATIO;

    @Option(
            names = WorkerFlags.DEFRAG_INTERVAL,
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description =
                    "Compact and defragment when this much time passed since the last time (0: off), e.g. 10m. Default: off.")
    Duration interval = DefragPolicyConfig.DEFAULT_INTERVAL;

    public DefragPolicyConfig toConfig() {
        try {
            return new DefragPolicyConfig(
                    everyEvents,
                    everyDeltas,
                    dbSizeBytes,
                    fragmentationRatio,
                    interval,
                    DefragPolicyConfig.DEFAULT_MIN_DB_SIZE_FOR_RATIO);
        } catch (IllegalArgumentException e) {
            throw new io.etcdworkers.contract.WorkerException(
                    io.etcdworkers.contract.ErrorCode.USAGE, e.getMessage(), e);
        }
    }
}
