package io.etcdworkers.rebuild;

import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.format.RestorePoint;
import io.etcdworkers.rebuild.engine.Engine;
import io.etcdworkers.rebuild.engine.EngineSettings;
import io.etcdworkers.rebuild.engine.KeyPrefix;
import io.etcdworkers.rebuild.replay.ReplayConfig;
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
 * @param point where the rebuild ends: the latest state, or a revision or time before it
 * @param keys the keys the rebuilt database must hold: all, or one prefix's (the offline engine
 *     folds and writes only those; the replay holds all)
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
        ReplayConfig replay,
        RestorePoint point,
        KeyPrefix keys) {

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
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(keys, "keys");
    }

    /** The same rebuild, ending at {@code point}. */
    public RebuildConfig withPoint(RestorePoint point) {
        return new RebuildConfig(
                prefix,
                member,
                skipHashCheck,
                scratchDir,
                scratchWalDir,
                etcdBinDir,
                path,
                engine,
                settings,
                replay,
                point,
                keys);
    }

    /** The same rebuild, keeping only {@code keys}, by {@code engine}. */
    public RebuildConfig withKeys(KeyPrefix keys, Engine engine) {
        return new RebuildConfig(
                prefix,
                member,
                skipHashCheck,
                scratchDir,
                scratchWalDir,
                etcdBinDir,
                path,
                engine,
                settings,
                replay,
                point,
                keys);
    }
}
