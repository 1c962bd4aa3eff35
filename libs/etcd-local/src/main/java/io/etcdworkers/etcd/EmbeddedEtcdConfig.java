package io.etcdworkers.etcd;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How to run the scratch etcd: which binary, which member, which dirs, and the limits the
 * caller sized for the largest revision group it will replay.
 *
 * @param binaries the etcd binaries and their version
 * @param member the member identity the data dir was restored with
 * @param dataDir an existing data dir (restored from a snapshot); owned by the caller
 * @param walDir a separate WAL dir (e.g. tmpfs), or empty
 * @param scratchDir where the etcd log goes (a temp dir under it, deleted on close)
 * @param quotaBackendBytes {@code --quota-backend-bytes}
 * @param maxRequestBytes {@code --max-request-bytes}: the largest txn etcd accepts
 * @param maxTxnOps {@code --max-txn-ops}: the most operations in one txn
 * @param snapshotCount {@code --snapshot-count}: raft entries between raft snapshots. etcd keeps
 *     the entries since the last one in memory, so this trades snapshot work against memory
 * @param startTimeout how long start may take until healthy
 * @param stopTimeout how long a SIGTERM stop may take before SIGKILL
 * @param goGc the Go runtime's {@code GOGC} for etcd (how far its heap grows past the live data
 *     before a collection: 100 = double); 0 keeps Go's default
 * @param forceNewCluster {@code --force-new-cluster}: the data dir was restored with a multi-member
 *     initial cluster (the one the placed dir must record) and this etcd must run as its member
 *     alone, without the others
 * @param fastElection 10 ms raft ticks ({@code --heartbeat-interval=10 --election-timeout=100}):
 *     the restarted single member is the leader within 10-100 ms instead of 100 ms to 1 s. For an
 *     etcd that only starts and serves reads (a verification); a replay's etcd keeps etcd's ticks,
 *     which wake it ten times less often while it applies every revision
 */
public record EmbeddedEtcdConfig(
        EtcdBinaries binaries,
        EtcdMember member,
        Path dataDir,
        Optional<Path> walDir,
        Path scratchDir,
        long quotaBackendBytes,
        long maxRequestBytes,
        int maxTxnOps,
        long snapshotCount,
        Duration startTimeout,
        Duration stopTimeout,
        int goGc,
        boolean forceNewCluster,
        boolean fastElection) {

    /** etcd's recommended maximum database size. */
    public static final long DEFAULT_QUOTA_BACKEND_BYTES = 8L * 1024 * 1024 * 1024;
    /** etcd's own default (1.5 MiB); callers raise it for large revision groups. */
    public static final long DEFAULT_MAX_REQUEST_BYTES = 1_572_864;
    /** etcd's own default. */
    public static final int DEFAULT_MAX_TXN_OPS = 128;
    /** etcd 3.4's default, ten times 3.6's: fewer raft snapshots during a replay, bounded memory. */
    public static final long DEFAULT_SNAPSHOT_COUNT = 100_000;

    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);
    /**
     * Start time allowed per byte of database beyond the default: etcd rebuilds its key index
     * from the whole database before it serves, measured at 52 s for 1,000,000 keys (147 MB) on
     * 2 busy cores (docs/benchmarks.md), so a fixed minute made large restores fall back.
     */
    static final double START_SECONDS_PER_MIB = 0.6;

    /** {@link #DEFAULT_START_TIMEOUT} plus {@link #START_SECONDS_PER_MIB} for each MiB etcd opens. */
    public static Duration startTimeoutFor(long databaseBytes) {
        double extra = START_SECONDS_PER_MIB * Math.max(0, databaseBytes) / (1024 * 1024);
        return DEFAULT_START_TIMEOUT.plusMillis((long) (extra * 1000));
    }

    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(30);

    public EmbeddedEtcdConfig {
        Objects.requireNonNull(binaries, "binaries");
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(walDir, "walDir");
        Objects.requireNonNull(scratchDir, "scratchDir");
        Objects.requireNonNull(startTimeout, "startTimeout");
        Objects.requireNonNull(stopTimeout, "stopTimeout");
        if (quotaBackendBytes <= 0 || maxRequestBytes <= 0 || maxTxnOps <= 0 || snapshotCount <= 0) {
            throw new IllegalArgumentException("etcd limits must be positive: quota=" + quotaBackendBytes
                    + " maxRequestBytes=" + maxRequestBytes + " maxTxnOps=" + maxTxnOps
                    + " snapshotCount=" + snapshotCount);
        }
        if (goGc < 0) {
            throw new IllegalArgumentException("GOGC must be positive, or 0 for Go's default: " + goGc);
        }
        if (startTimeout.isNegative() || startTimeout.isZero() || stopTimeout.isNegative()) {
            throw new IllegalArgumentException(
                    "timeouts must be positive: start=" + startTimeout + " stop=" + stopTimeout);
        }
    }

    /** The defaults above, no separate WAL dir. */
    public static EmbeddedEtcdConfig defaults(EtcdBinaries binaries, EtcdMember member, Path dataDir, Path scratchDir) {
        return new EmbeddedEtcdConfig(
                binaries,
                member,
                dataDir,
                Optional.empty(),
                scratchDir,
                DEFAULT_QUOTA_BACKEND_BYTES,
                DEFAULT_MAX_REQUEST_BYTES,
                DEFAULT_MAX_TXN_OPS,
                DEFAULT_SNAPSHOT_COUNT,
                DEFAULT_START_TIMEOUT,
                DEFAULT_STOP_TIMEOUT,
                0,
                false,
                false);
    }

    public EmbeddedEtcdConfig withWalDir(Path wal) {
        return new EmbeddedEtcdConfig(
                binaries,
                member,
                dataDir,
                Optional.of(wal),
                scratchDir,
                quotaBackendBytes,
                maxRequestBytes,
                maxTxnOps,
                snapshotCount,
                startTimeout,
                stopTimeout,
                goGc,
                forceNewCluster,
                fastElection);
    }

    public EmbeddedEtcdConfig withRequestLimits(long requestBytes, int txnOps) {
        return new EmbeddedEtcdConfig(
                binaries,
                member,
                dataDir,
                walDir,
                scratchDir,
                quotaBackendBytes,
                requestBytes,
                txnOps,
                snapshotCount,
                startTimeout,
                stopTimeout,
                goGc,
                forceNewCluster,
                fastElection);
    }

    public EmbeddedEtcdConfig withStartTimeout(Duration timeout) {
        return new EmbeddedEtcdConfig(
                binaries,
                member,
                dataDir,
                walDir,
                scratchDir,
                quotaBackendBytes,
                maxRequestBytes,
                maxTxnOps,
                snapshotCount,
                timeout,
                stopTimeout,
                goGc,
                forceNewCluster,
                fastElection);
    }

    public EmbeddedEtcdConfig withGoGc(int gc) {
        return new EmbeddedEtcdConfig(
                binaries,
                member,
                dataDir,
                walDir,
                scratchDir,
                quotaBackendBytes,
                maxRequestBytes,
                maxTxnOps,
                snapshotCount,
                startTimeout,
                stopTimeout,
                gc,
                forceNewCluster,
                fastElection);
    }

    /** The same etcd, started with {@code --force-new-cluster} (see the record's parameter). */
    public EmbeddedEtcdConfig withForceNewCluster() {
        return new EmbeddedEtcdConfig(
                binaries,
                member,
                dataDir,
                walDir,
                scratchDir,
                quotaBackendBytes,
                maxRequestBytes,
                maxTxnOps,
                snapshotCount,
                startTimeout,
                stopTimeout,
                goGc,
                true,
                fastElection);
    }

    /** The same etcd with 10 ms raft ticks (see the record's parameter). */
    public EmbeddedEtcdConfig withFastElection() {
        return new EmbeddedEtcdConfig(
                binaries,
                member,
                dataDir,
                walDir,
                scratchDir,
                quotaBackendBytes,
                maxRequestBytes,
                maxTxnOps,
                snapshotCount,
                startTimeout,
                stopTimeout,
                goGc,
                forceNewCluster,
                true);
    }
}
