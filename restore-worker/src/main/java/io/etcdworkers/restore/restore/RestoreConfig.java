package io.etcdworkers.restore.restore;

import io.etcdworkers.restore.etcd.EtcdMember;
import io.etcdworkers.restore.replay.ReplayConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a restore needs besides the store.
 *
 * @param prefix the store prefix
 * @param dataDir where the restored data dir is placed (built in {@code <data-dir>.part})
 * @param member the member the data dir is restored for ({@code --name}, peer URL, token)
 * @param skipHashCheck accept a base without (or with a wrong) SHA-256 trailer
 * @param force replace an existing non-empty data dir
 * @param scratchDir where downloads and etcd logs go
 * @param scratchWalDir optional WAL dir for the scratch etcd (tmpfs); the placed dir gets its own WAL
 * @param etcdBinDir where etcd, etcdctl and etcdutl are; else PATH
 * @param path the PATH to search
 * @param quotaBytes the scratch etcd's {@code --quota-backend-bytes}
 * @param callTimeout deadline of one call to the scratch etcd
 * @param replay how deltas are replayed (the offline engine uses its fetch and lease settings)
 * @param engine replay, offline, or offline falling back to replay
 */
public record RestoreConfig(
        String prefix,
        Path dataDir,
        EtcdMember member,
        boolean skipHashCheck,
        boolean force,
        Path scratchDir,
        Optional<Path> scratchWalDir,
        Optional<Path> etcdBinDir,
        String path,
        long quotaBytes,
        Duration callTimeout,
        ReplayConfig replay,
        Engine engine) {

    public static final long DEFAULT_QUOTA_BYTES = 8L * 1024 * 1024 * 1024;
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofMinutes(2);

    public RestoreConfig {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(scratchDir, "scratchDir");
        Objects.requireNonNull(scratchWalDir, "scratchWalDir");
        Objects.requireNonNull(etcdBinDir, "etcdBinDir");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(callTimeout, "callTimeout");
        Objects.requireNonNull(replay, "replay");
        Objects.requireNonNull(engine, "engine");
        dataDir = dataDir.toAbsolutePath().normalize();
        if (dataDir.getParent() == null) {
            throw new IllegalArgumentException("--data-dir cannot be the root directory");
        }
        if (quotaBytes <= 0) {
            throw new IllegalArgumentException("--embedded-etcd-quota-bytes must be positive");
        }
    }
}
