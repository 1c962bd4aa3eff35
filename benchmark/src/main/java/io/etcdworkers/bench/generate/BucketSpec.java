package io.etcdworkers.bench.generate;

import java.nio.file.Path;

/**
 * What bucket to generate.
 *
 * @param outDir gets {@code bucket/v2/...} and {@code expected.json}
 * @param events delta events to synthesize after the base snapshot
 * @param seedKeys keys put into the real etcd before its snapshot is taken
 * @param seed seeds values and the workload; same seed, same bucket (except file times)
 * @param etcdBinary the etcd used to seed and snapshot the base
 * @param smallValues values of 16 to 64 bytes instead of 1 to 4 KiB (keyspaces of millions of keys)
 */
public record BucketSpec(Path outDir, long events, int seedKeys, long seed, Path etcdBinary, boolean smallValues) {
    public BucketSpec(Path outDir, long events, int seedKeys, long seed, Path etcdBinary) {
        this(outDir, events, seedKeys, seed, etcdBinary, false);
    }

    /** The values this bucket's keys get. */
    public ValueSource values() {
        return smallValues ? ValueSource.small(seed, 16, 48) : new ValueSource(seed);
    }

    public BucketSpec {
        if (events <= 0 || seedKeys <= 0) {
            throw new IllegalArgumentException("events and seed keys must be positive");
        }
    }

    public Path bucketDir() {
        return outDir.resolve("bucket");
    }

    public Path expectedFile() {
        return outDir.resolve("expected.json");
    }
}
