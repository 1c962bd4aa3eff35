package io.etcdworkers.restore.offline;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.bolt.BoltFormatException;
import io.etcdworkers.restore.engine.BuiltDatabase;
import io.etcdworkers.restore.engine.DatabaseEngine;
import io.etcdworkers.restore.engine.Engine;
import io.etcdworkers.restore.engine.EngineInput;
import io.etcdworkers.restore.engine.EngineRefused;
import io.etcdworkers.restore.engine.EngineSettings;
import io.etcdworkers.restore.engine.KeyPrefix;
import io.etcdworkers.restore.engine.Placement;
import io.etcdworkers.restore.engine.RebuildOutcome;
import io.etcdworkers.restore.engine.RebuildStats;
import io.etcdworkers.restore.engine.ServedKeyspace;
import io.etcdworkers.restore.engine.VerifiedDatabase;
import io.etcdworkers.restore.engine.WrittenDatabase;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.etcd.DataDirCopy;
import io.etcdworkers.restore.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.restore.etcd.EtcdMember;
import io.etcdworkers.restore.etcd.ScratchEtcd;
import io.etcdworkers.restore.etcd.SnapshotRestorer;
import io.etcdworkers.restore.files.DiskFull;
import io.etcdworkers.restore.files.FileTree;
import io.etcdworkers.restore.store.ObjectStore;
import io.etcdworkers.restore.verify.KeyspaceRead;
import io.etcdworkers.restore.verify.WrittenKeyspaceCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The offline engine: fold the deltas into a compacted database without etcd ({@link
 * FoldWriter}); to verify it, turn it into the scratch data dir with etcd's own {@code snapshot
 * restore}, start a real etcd on it and require that it serves exactly the keyspace the fold
 * computed, at the expected revision. The verified database is that very file. For a restore
 * ({@link EngineInput#placement()}) the file is restored once, with the member's identity, and
 * copied into the placed dir before the verifying etcd starts on the restored one.
 *
 * <p>When the base's layout is not understood, or etcd cannot restore or open the database, or
 * serves anything else, this throws {@link EngineRefused}: {@code --engine=auto} then replays.
 */
public final class OfflineEngine implements DatabaseEngine {
    private static final Logger LOG = LoggerFactory.getLogger(OfflineEngine.class);
    /**
     * The verifying etcd only serves reads for a second or two: a tight Go heap costs little CPU
     * there and keeps it from adding tens of MB of garbage on top of the database it maps
     * (measured at 300k: etcd 265 -> 219 MB, the whole tree 457 -> 393 MB).
     */
    static final int VERIFY_GOGC = 25;

    private final ObjectStore store;
    private final EngineSettings settings;
    private final Clock clock;
    private final KeyPrefix keys;

    public OfflineEngine(ObjectStore store, EngineSettings settings, Clock clock) {
        this(store, settings, clock, KeyPrefix.ALL);
    }

    /** An engine whose database holds only {@code keys} (and is verified as holding exactly those). */
    public OfflineEngine(ObjectStore store, EngineSettings settings, Clock clock, KeyPrefix keys) {
        this.store = store;
        this.settings = settings;
        this.clock = clock;
        this.keys = keys;
    }

    @Override
    public BuiltDatabase build(EngineInput in) throws EngineRefused, InterruptedException {
        Instant t = in.phases().start();
        OfflineResult folded = fold(in);
        in.phases().done("offlineFold", t);
        // A phase boundary: everything the fold allocated is garbage now. Collect it before etcd
        // starts and maps the database, so a heap grown by decoding can shrink (serial and G1 give
        // memory back after a full collection) instead of adding to etcd's peak.
        System.gc();
        return new Folded(in, folded);
    }

    private OfflineResult fold(EngineInput in) throws EngineRefused, InterruptedException {
        try {
            Path work = Files.createDirectories(in.scratch().resolve("offline"));
            return new FoldWriter(store, settings, clock, keys).build(in.selection(), in.baseFile(), work,
                    in.scratch().resolve("offline.db"));
        } catch (BoltFormatException e) {
            throw new EngineRefused(ErrorCode.UNSUPPORTED_OBJECT, in.selection().base().key()
                    + ": the offline engine does not understand this database: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "the offline fold under " + in.scratch() + " failed: "
                    + DiskFull.explain(e, in.scratch()), e);
        }
    }

    /** The folded database, written, not yet opened by etcd. */
    private final class Folded implements BuiltDatabase {
        private final EngineInput in;
        private final OfflineResult folded;

        Folded(EngineInput in, OfflineResult folded) {
            this.in = in;
            this.folded = folded;
        }

        @Override
        public Engine engine() {
            return Engine.OFFLINE;
        }

        @Override
        public Optional<WrittenDatabase> written() {
            return Optional.of(new WrittenDatabase(folded.database(), folded.finalRevision()));
        }

        @Override
        public VerifiedDatabase verify() throws EngineRefused, InterruptedException {
            DatabaseReadBack fileRead = null;
            try {
                EmbeddedEtcdConfig config;
                if (in.placement().isPresent()) {
                    config = restoreAndCopy(in.placement().get());
                    // the placed bytes themselves, read back on the other core while etcd starts
                    // on the dir they were copied from
                    fileRead = DatabaseReadBack.start(in.placement().get().databaseFile(), "the placed database");
                } else {
                    // the file etcd is restored from, read back on the other core meanwhile
                    fileRead = DatabaseReadBack.start(folded.database(), "the offline engine's database");
                    config = restoreForVerify();
                }
                ScratchEtcd etcd = start(config);
                try {
                    return check(etcd, fileRead);
                } catch (EngineRefused | RuntimeException | Error e) {
                    etcd.close();
                    throw e;
                }
            } finally {
                if (fileRead != null) {
                    fileRead.cancel();
                }
            }
        }

        /** The database restored into the scratch etcd's data dir, as a member alone (phase {@code restoreOffline}). */
        private EmbeddedEtcdConfig restoreForVerify() throws EngineRefused {
            Instant t = in.phases().start();
            restore(in.member(), in.dataDir(), in.walDir());
            in.phases().done("restoreOffline", t);
            return in.etcdConfig(settings);
        }

        /**
         * The database restored into the scratch etcd's data dir with the member's identity (phase
         * {@code restoreOffline}), and that dir copied into the placement before etcd starts on it
         * (phase {@code copyPlaced}); the copy is synced in the background while etcd starts and
         * serves, the placement's own sync before the rename then finds little left to write. The
         * etcd forms a cluster of its own when the dir records several members.
         */
        private EmbeddedEtcdConfig restoreAndCopy(Placement placement) throws EngineRefused {
            Instant t = in.phases().start();
            restore(placement.member(), in.dataDir(), in.walDir());
            in.phases().done("restoreOffline", t);
            t = in.phases().start();
            long bytes;
            try {
                bytes = DataDirCopy.copy(in.dataDir(), in.walDir(), placement.dataDir());
            } catch (IOException e) {
                throw new WorkerException(ErrorCode.LOCAL_IO, "cannot copy the restored data dir into "
                        + placement.dataDir() + ": " + DiskFull.explain(e, placement.dataDir()), e);
            }
            in.phases().done("copyPlaced", t);
            LOG.info("restored data dir copied to be placed from={} to={} bytes={} newCluster={}", in.dataDir(),
                    placement.dataDir(), bytes, placement.needsNewCluster());
            syncInBackground(placement.dataDir());
            EmbeddedEtcdConfig config = in.etcdConfig(settings);
            return placement.needsNewCluster() ? config.withForceNewCluster() : config;
        }

        private static void syncInBackground(Path dir) {
            Thread sync = new Thread(() -> {
                try {
                    FileTree.fsync(dir);
                } catch (IOException e) {
                    // the placement syncs again before its rename and reports a failure there; a
                    // refused database's copy may be removed while this runs
                    LOG.debug("background sync of {}: {}", dir, e.toString());
                }
            }, "sync-placed-data-dir");
            sync.setDaemon(true);
            sync.start();
        }

        private void restore(EtcdMember member, Path dataDir, Optional<Path> walDir) throws EngineRefused {
            try {
                new SnapshotRestorer(in.binaries(), in.scratch(), SnapshotRestorer.DEFAULT_TIMEOUT).restore(
                        new SnapshotRestorer.Request(folded.database(), member, dataDir, walDir, false));
            } catch (WorkerException e) {
                throw refusedOn(e, "etcd could not restore the offline engine's database: ");
            }
        }

        private ScratchEtcd start(EmbeddedEtcdConfig config) throws EngineRefused {
            try {
                return ScratchEtcd.start(config.withGoGc(VERIFY_GOGC).withFastElection(),
                        settings.callTimeout());
            } catch (WorkerException e) {
                throw refusedOn(e, "etcd could not start on the offline engine's database: ");
            }
        }

        private VerifiedDatabase check(ScratchEtcd etcd, DatabaseReadBack fileRead)
                throws EngineRefused, InterruptedException {
            Instant t = in.phases().start();
            long revision = etcd.client().status().getHeader().getRevision();
            long expected = in.expectedRevision(folded.baseRevision(), folded.sequence());
            if (revision != expected || folded.finalRevision() != expected) {
                throw new EngineRefused(ErrorCode.ETCD_FAILURE, String.format("etcd opened the offline engine's "
                        + "database at revision %d; the fold ended at %d and the backup at %d", revision,
                        folded.finalRevision(), expected), null);
            }
            KeyspaceRead read;
            try {
                read = WrittenKeyspaceCheck.check(etcd.client(), revision, folded.expected(), folded.sums(),
                        folded.bounds(), fileRead.get(), settings.verifyScope(), new Random());
            } catch (WrittenKeyspaceCheck.Mismatch e) {
                throw new EngineRefused(ErrorCode.ETCD_FAILURE, "the offline engine's database fails its "
                        + "verification: " + e.getMessage(), e);
            }
            ServedKeyspace.log(read, Engine.OFFLINE);
            in.phases().done("verify", t);
            RebuildStats stats = new RebuildStats(folded.sequence(), folded.leasesGranted(), folded.databaseBytes(),
                    folded.duration(), Optional.empty(), Optional.of(folded.fold()));
            return new VerifiedDatabase(etcd, new RebuildOutcome(in.selection(), Engine.OFFLINE, "",
                    folded.baseRevision(), stats, read), Optional.of(folded.database()), in, in.placement().isPresent());
        }

        @Override
        public void close() {
            // nothing runs; the written file stays for the caller (it is in the run's scratch dir)
        }
    }

    /** A failure of etcd itself on this database is a refusal; anything else (a full disk) is not. */
    private static EngineRefused refusedOn(WorkerException e, String what) {
        if (e.code() != ErrorCode.ETCD_FAILURE) {
            throw e;
        }
        return new EngineRefused(ErrorCode.ETCD_FAILURE, what + e.getMessage(), e);
    }
}
