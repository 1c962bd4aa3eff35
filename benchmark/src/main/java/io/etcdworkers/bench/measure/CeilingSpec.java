package io.etcdworkers.bench.measure;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A raw sequential-transaction measurement.
 *
 * @param bucketDir the generated bucket: its full snapshot is the starting database
 * @param seed the bucket's seed (from {@code expected.json}), so the workload has the same shape
 * @param targetKeys the bucket's seed key count, the live key count the workload holds
 * @param txns how many revisions to send
 * @param scratchDir where the data dir goes (deleted after)
 * @param walDir a WAL dir (a tmpfs), or empty for the WAL inside the data dir on disk
 * @param snapshotCount etcd's {@code --snapshot-count}, or empty for the worker's default
 * @param outFile the JSON result
 */
public record CeilingSpec(
        Path bucketDir,
        long seed,
        int targetKeys,
        int txns,
        Path scratchDir,
        Optional<Path> walDir,
        Optional<Long> snapshotCount,
        Path outFile) {}
