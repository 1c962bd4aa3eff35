package io.etcdworkers.rebuild.engine;

import io.etcdworkers.etcd.EtcdDataDir;
import io.etcdworkers.etcd.EtcdMember;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a restore places the verified database: the target member's identity (its whole initial
 * cluster) and the data dir to write ({@code <data-dir>.part}, absent or empty). An engine that
 * has its database as a file before verification (the offline engine) restores it once with that
 * identity and copies the restored dir there before the verifying etcd starts on it: one {@code
 * snapshot restore} instead of two, and the bytes placed are the bytes verified. The placed dir is
 * still never one an etcd ran on.
 */
public record Placement(EtcdMember member, Path dataDir) {
    public Placement {
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(dataDir, "dataDir");
    }

    /**
     * Whether an etcd on a dir restored with this identity must be told to form a cluster of its own
     * ({@code --force-new-cluster}): the dir records every member, and alone it has no quorum.
     */
    public boolean needsNewCluster() {
        return member.cluster().size() > 1;
    }

    /** The placed dir's database file, {@code member/snap/db}. */
    public Path databaseFile() {
        return EtcdDataDir.databaseFile(dataDir);
    }
}
