package io.etcdworkers.rebuild.engine;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.DataDirCopy;
import io.etcdworkers.etcd.EtcdDataDir;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.etcd.MaintenanceSnapshot;
import io.etcdworkers.etcd.SnapshotRestorer;
import io.etcdworkers.files.DiskFull;
import io.etcdworkers.files.FileTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a restore places the verified database, and the step that places it: the target member's
 * identity (its whole initial cluster) and the data dir to write ({@code <data-dir>.part}, absent
 * or empty). The placed dir is always a fresh {@code snapshot restore} with that identity, never a
 * dir an etcd ran on.
 *
 * <p>Two ways, one per kind of engine, both ending in {@link #complete}:
 * <ul>
 *   <li>An engine that has its database as a file before verification (the offline engine)
 *       restores it once with that identity and has {@link #copyRestored} copy the restored dir
 *       here before the verifying etcd starts on it: one {@code snapshot restore} instead of two,
 *       and the bytes placed are the bytes verified. Its {@link VerifiedDatabase#placed()} says
 *       so, and {@link #complete} only stops that etcd.
 *   <li>Otherwise (the replay) {@link #complete} takes the verified database from the running
 *       etcd as a file, stops it, and restores the file here.
 * </ul>
 */
public record Placement(EtcdMember member, Path dataDir) {
    private static final Logger LOG = LoggerFactory.getLogger(Placement.class);

    /** The replay's verified database, taken from its etcd, inside the run's scratch dir. */
    static final String VERIFIED_DB = "verified.db";

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

    /**
     * Copies the scratch etcd's dirs of {@code in}, just restored with this identity and not yet
     * opened, into the placed dir (phase {@code copyPlaced}). The copy is synced in the background
     * while etcd starts and serves; the target's own sync before its rename then finds little left
     * to write.
     */
    public void copyRestored(EngineInput in) {
        Instant t = in.phases().start();
        long bytes;
        try {
            bytes = DataDirCopy.copy(in.dataDir(), in.walDir(), dataDir);
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot copy the restored data dir into " + dataDir + ": " + DiskFull.explain(e, dataDir),
                    e);
        }
        in.phases().done("copyPlaced", t);
        LOG.info(
                "restored data dir copied to be placed from={} to={} bytes={} newCluster={}",
                in.dataDir(),
                dataDir,
                bytes,
                needsNewCluster());
        syncInBackground(dataDir);
    }

    /**
     * Places {@code verified} and stops its etcd: already placed ({@link #copyRestored}), the etcd
     * is stopped; else its database is taken as a file (phase {@code snapshotVerified}), the etcd
     * stopped, and the file restored here with this identity, its SHA-256 trailer checked by the
     * tool and its WAL inside the dir (phase {@code restorePlaced}).
     */
    public void complete(VerifiedDatabase verified) {
        if (verified.placed()) {
            verified.stopEtcd();
            return;
        }
        EngineInput in = verified.input();
        Path database = verified.databaseFile(in.scratch().resolve(VERIFIED_DB), MaintenanceSnapshot.DEFAULT_TIMEOUT);
        verified.stopEtcd();
        Instant t = in.phases().start();
        new SnapshotRestorer(in.binaries(), in.scratch(), SnapshotRestorer.DEFAULT_TIMEOUT)
                .restore(new SnapshotRestorer.Request(database, member, dataDir, Optional.empty(), false));
        try {
            Files.deleteIfExists(database);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot remove " + database + ": " + e.getMessage(), e);
        }
        in.phases().done("restorePlaced", t);
    }

    /** Removes what was placed, so that another engine's database can be placed here. */
    public void clear() throws IOException {
        FileTree.delete(dataDir);
    }

    private static void syncInBackground(Path dir) {
        Thread sync = new Thread(
                () -> {
                    try {
                        FileTree.fsync(dir);
                    } catch (IOException e) {
                        // the target syncs again before its rename and reports a failure there; a
                        // refused database's copy may be removed while this runs
                        LOG.debug("background sync of {}: {}", dir, e.toString());
                    }
                },
                "sync-placed-data-dir");
        sync.setDaemon(true);
        sync.start();
    }
}
