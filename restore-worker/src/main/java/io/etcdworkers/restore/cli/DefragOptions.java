package io.etcdworkers.restore.cli;

import io.etcdworkers.restore.replay.DefragPolicyConfig;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The defragmentation policy flags, shared by the restore and compaction commands. */
public final class DefragOptions {

    @Option(names = "--defrag-every-events", paramLabel = "N",
            description = "Compact and defragment the scratch etcd after this many events (0: off). Default: ${DEFAULT-VALUE}.")
    long everyEvents = DefragPolicyConfig.DEFAULT_EVERY_EVENTS;

    @Option(names = "--defrag-every-deltas", paramLabel = "N",
            description = "Compact and defragment the scratch etcd after this many deltas (0: off). Default: ${DEFAULT-VALUE}.")
    int everyDeltas = DefragPolicyConfig.DEFAULT_EVERY_DELTAS;

    @Option(names = "--defrag-db-size-bytes", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "Compact and defragment when the scratch database file reaches this size (0: off). Default: ${DEFAULT-VALUE}.")
    long dbSizeBytes = DefragPolicyConfig.DEFAULT_DB_SIZE_BYTES;

    @Option(names = "--defrag-fragmentation-ratio", paramLabel = "RATIO",
            description = "Compact and defragment when 1 - dbSizeInUse/dbSize reaches this, for databases of 64 MiB or more (0: off). Default: ${DEFAULT-VALUE}.")
    double fragmentationRatio = DefragPolicyConfig.DEFAULT_FRAGMENTATION_RATIO;

    @Option(names = "--defrag-interval", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Compact and defragment when this much time passed since the last time (0: off), e.g. 10m. Default: off.")
    Duration interval = DefragPolicyConfig.DEFAULT_INTERVAL;

    public DefragPolicyConfig toConfig() {
        try {
            return new DefragPolicyConfig(everyEvents, everyDeltas, dbSizeBytes, fragmentationRatio, interval,
                    DefragPolicyConfig.DEFAULT_MIN_DB_SIZE_FOR_RATIO);
        } catch (IllegalArgumentException e) {
            throw new io.etcdworkers.restore.error.WorkerException(io.etcdworkers.restore.error.ErrorCode.USAGE,
                    e.getMessage(), e);
        }
    }
}
