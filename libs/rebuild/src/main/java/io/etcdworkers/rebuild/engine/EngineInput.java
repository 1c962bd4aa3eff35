package io.etcdworkers.rebuild.engine;

import io.etcdworkers.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.etcd.EtcdDataDir;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.etcd.ScratchEtcd;
import io.etcdworkers.files.FileTree;
import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.format.StopAt;
import io.etcdworkers.rebuild.sequence.PointReached;
import io.etcdworkers.rebuild.sequence.SequenceStats;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * One rebuild's inputs and places, the same for every engine.
 *
 * @param binaries etcd and its tools
 * @param member the member the scratch etcd runs as
 * @param selection the base and the deltas after it
 * @param baseFile the decompressed base, its hash trailer checked (unless {@code skipHashCheck})
 * @param skipHashCheck the base may lack a valid trailer
 * @param scratch this run's private scratch dir
 * @param dataDir the scratch etcd's data dir (must not exist yet)
 * @param walDir the scratch etcd's WAL dir, when not inside the data dir
 * @param phases where each stage records its wall time
 * @param placement where the restore places the verified database, when this rebuild is a
 *     restore's (see {@link Placement}); empty for a compaction
 */
public record EngineInput(
        EtcdBinaries binaries,
        EtcdMember member,
        SnapshotSelection selection,
        Path baseFile,
        boolean skipHashCheck,
        Path scratch,
        Path dataDir,
        Optional<Path> walDir,
        Phases phases,
        Optional<Placement> placement) {

    /**
     * etcd keeps every raft entry since its last raft snapshot in memory (plus 5,000 for followers
     * to catch up); a replay's entries are whole transactions, so 3.4's default of 100,000 holds
     * hundreds of MB. Measured: 30,000 txns of ~3 KB left 178 MB of etcd heap at 100,000 and 107 MB
     * at 10,000, at the same speed within noise.
     */
    static final long SCRATCH_SNAPSHOT_COUNT = 10_000;

    public EngineInput {
        Objects.requireNonNull(walDir, "walDir");
        Objects.requireNonNull(placement, "placement");
    }

    /**
     * The scratch etcd on {@link #dataDir}, with the settings' quota and the replay's starting
     * limits; its start may take longer the larger the database it opens there.
     */
    public EmbeddedEtcdConfig etcdConfig(EngineSettings settings) {
        return new EmbeddedEtcdConfig(
                binaries,
                member,
                dataDir,
                walDir,
                scratch,
                settings.quotaBytes(),
                ScratchEtcd.MIN_REQUEST_BYTES,
                ScratchEtcd.MIN_TXN_OPS,
                SCRATCH_SNAPSHOT_COUNT,
                EmbeddedEtcdConfig.startTimeoutFor(EtcdDataDir.databaseBytes(dataDir)),
                EmbeddedEtcdConfig.DEFAULT_STOP_TIMEOUT,
                0,
                false,
                false);
    }

    /**
     * Removes what an engine wrote for this input: the scratch etcd's data dir, its WAL dir, and
     * the placement (which the offline engine fills before its verification), so that another
     * engine, or another database, can be built there.
     */
    public void clearBuiltDirs() throws IOException {
        FileTree.delete(dataDir);
        if (walDir.isPresent()) {
            FileTree.delete(walDir.get());
        }
        if (placement.isPresent()) {
            placement.get().clear();
        }
    }

    /**
     * The revision the rebuilt database must open at: the one asked for; else where a {@code
     * --to-last-good} or {@code --to-time} sequence ended; else the chain's last, or the base's
     * when no delta passes it.
     */
    public long expectedRevision(long baseRevision, SequenceStats sequence) {
        PointReached reached = sequence.reached();
        if (reached.end() == PointReached.End.DAMAGE) {
            return reached.revision();
        }
        StopAt stopAt = selection.point().stopAt();
        if (stopAt instanceof StopAt.AtRevision r) {
            return Math.max(r.revision(), baseRevision);
        }
        if (stopAt instanceof StopAt.AtTime) {
            return reached.revision();
        }
        return Math.max(selection.lastRevision(), baseRevision);
    }
}
