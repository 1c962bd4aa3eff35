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
 */
public record BucketSpec(Path outDir, long events, int seedKeys, long seed, Path etcdBinary) {
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
