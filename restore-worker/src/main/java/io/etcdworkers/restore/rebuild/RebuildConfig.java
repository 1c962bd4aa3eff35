package io.etcdworkers.restore.rebuild;

import io.etcdworkers.restore.engine.Engine;
import io.etcdworkers.restore.engine.EngineSettings;
import io.etcdworkers.restore.etcd.EtcdMember;
import io.etcdworkers.restore.replay.ReplayConfig;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What a rebuild needs besides the store, the same for a restore and a compaction.
 *
 * @param prefix the store prefix
 * @param member the member the scratch etcd runs as (the restore's target member, or any for a compaction)
 * @param skipHashCheck accept a base without (or with a wrong) SHA-256 trailer
 * @param scratchDir where downloads, the scratch etcd's data dir and its logs go
 * @param scratchWalDir optional WAL dir for the scratch etcd (tmpfs)
 * @param etcdBinDir where etcd, etcdctl and etcdutl are; else PATH
 * @param path the PATH to search
 * @param engine replay, offline, or offline falling back to replay
 * @param settings what every engine is tuned by
 * @param replay what only the replay is tuned by
 */
public record RebuildConfig(
        String prefix,
        EtcdMember member,
        boolean skipHashCheck,
        Path scratchDir,
        Optional<Path> scratchWalDir,
        Optional<Path> etcdBinDir,
        String path,
        Engine engine,
        EngineSettings settings,
        ReplayConfig replay) {

    public RebuildConfig {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(scratchDir, "scratchDir");
        Objects.requireNonNull(scratchWalDir, "scratchWalDir");
        Objects.requireNonNull(etcdBinDir, "etcdBinDir");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(replay, "replay");
    }
}
