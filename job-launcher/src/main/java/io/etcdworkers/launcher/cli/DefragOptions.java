package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.job.DefragFlags;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.Option;

/** The workers' engine and defragmentation policy, passed through; unset flags keep the worker's defaults. */
final class DefragOptions {
    @Option(
            names = "--engine",
            paramLabel = "replay|offline|auto",
            description = "How the worker builds the database (the worker's default: auto, the offline engine "
                    + "falling back to the replay).")
    String engine;

    @Option(names = "--defrag-every-events", description = "Defragment after this many replayed events (0: off).")
    Long everyEvents;

    @Option(names = "--defrag-every-deltas", description = "Defragment after this many delta snapshots (0: off).")
    Long everyDeltas;

    @Option(
            names = "--defrag-db-size-bytes",
            description = "Defragment when the database grows past this size (0: off).")
    Long dbSizeBytes;

    @Option(
            names = "--defrag-fragmentation-ratio",
            description = "Defragment when this share of the database is free, [0, 1) (0: off).")
    Double fragmentationRatio;

    @Option(
            names = "--defrag-interval",
            converter = DurationConverter.class,
            description = "Defragment at least this often, e.g. 5m (0: off).")
    Duration interval;

    DefragFlags toFlags() {
        return new DefragFlags(
                everyEvents,
                everyDeltas,
                dbSizeBytes,
                fragmentationRatio,
                interval,
                engine == null ? null : engine.toLowerCase(Locale.ROOT));
    }
}
