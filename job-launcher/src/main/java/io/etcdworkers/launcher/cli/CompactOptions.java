package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.job.CompactFlags;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The compaction worker's flags, passed through. */
final class CompactOptions {
    @Option(names = "--min-delta-revisions", description = "Skip (exit 0) below this many revisions since the base.")
    Long minDeltaRevisions;

    @Option(names = "--min-delta-snapshots", description = "Skip (exit 0) below this many delta snapshots.")
    Long minDeltaSnapshots;

    @Option(names = "--min-delta-bytes", description = "Skip (exit 0) below this many bytes of deltas.")
    Long minDeltaBytes;

    @Option(names = "--compression-policy", description = "gzip, zlib, lzw or none.")
    String compressionPolicy;

    @Option(
            names = "--defragment",
            arity = "0..1",
            fallbackValue = "true",
            description = "Defragment before the snapshot.")
    Boolean defragment;

    @Option(names = "--etcd-defrag-timeout", converter = DurationConverter.class, description = "e.g. 8m.")
    Duration etcdDefragTimeout;

    @Option(
            names = "--enable-snapshot-lease-renewal",
            description = "Renew the full-snapshot lease (mounts a service account token).")
    boolean enableSnapshotLeaseRenewal;

    @Option(names = "--full-snapshot-lease-name", description = "The lease to renew.")
    String fullSnapshotLeaseName;

    CompactFlags toFlags() {
        return new CompactFlags(
                minDeltaRevisions,
                minDeltaSnapshots,
                minDeltaBytes,
                compressionPolicy,
                defragment,
                etcdDefragTimeout,
                enableSnapshotLeaseRenewal,
                fullSnapshotLeaseName);
    }
}
