package io.etcdworkers.rebuild.offline;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.etcd.ScratchEtcd;
import io.etcdworkers.etcd.SnapshotRestorer;
import io.etcdworkers.rebuild.engine.EngineInput;
import io.etcdworkers.rebuild.engine.EngineRefused;
import io.etcdworkers.rebuild.engine.EngineSettings;
import io.etcdworkers.rebuild.engine.Placement;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * A database file opened by the etcd that verifies it: turned into that etcd's data dir by etcd's
 * own {@code snapshot restore} (phase {@code restoreOffline}), and etcd started on it. For a
 * restore ({@link EngineInput#placement()}) the dir is restored with the member's identity and
 * placed before etcd starts ({@link Placement#copyRestored}), and the placed copy is
 * what is read back; for a compaction the file itself is. etcd's start, until it answers, is phase
 * {@code startEtcd} (at millions of keys it is etcd building its index, the longest step after the
 * fold). The read-back ({@link DatabaseReadBack}) runs on a thread of its own while etcd starts.
 */
final class VerifyingEtcd implements AutoCloseable {
    /**
     * The verifying etcd only serves reads for a second or two: a tight Go heap costs little CPU
     * there and keeps it from adding tens of MB of garbage on top of the database it maps
     * (measured at 300k: etcd 265 -> 219 MB, the whole tree 457 -> 393 MB).
     */
    static final int VERIFY_GOGC = 25;

    private final ScratchEtcd etcd;
    private final DatabaseReadBack fileRead;

    private VerifyingEtcd(ScratchEtcd etcd, DatabaseReadBack fileRead) {
        this.etcd = etcd;
        this.fileRead = fileRead;
    }

    ScratchEtcd etcd() {
        return etcd;
    }

    DatabaseReadBack fileRead() {
        return fileRead;
    }

    /**
     * Restores {@code database} into {@link EngineInput#dataDir()} (and, for a restore, copies it
     * into the placement) and starts etcd on it.
     *
     * @param skipHashCheck the database has no SHA-256 trailer (the fold wrote it for this restore)
     * @throws EngineRefused when etcd cannot restore or open the database
     */
    static VerifyingEtcd open(EngineInput in, EngineSettings settings, Path database, boolean skipHashCheck)
            throws EngineRefused {
        DatabaseReadBack fileRead = null;
        try {
            EmbeddedEtcdConfig config;
            if (in.placement().isPresent()) {
                config = restoreAndPlace(
                        in, settings, database, skipHashCheck, in.placement().get());
                // the placed bytes themselves, read back on the other core while etcd starts on
                // the dir they were copied from
                fileRead = DatabaseReadBack.start(in.placement().get().databaseFile(), "the placed database");
            } else {
                // the file etcd is restored from, read back on the other core meanwhile
                fileRead = DatabaseReadBack.start(database, "the offline engine's database");
                Instant restoring = in.phases().start();
                restore(in, database, skipHashCheck, in.member(), in.dataDir(), in.walDir());
                in.phases().done("restoreOffline", restoring);
                config = in.etcdConfig(settings);
            }
            Instant t = in.phases().start();
            ScratchEtcd etcd = start(config, settings);
            in.phases().done("startEtcd", t);
            return new VerifyingEtcd(etcd, fileRead);
        } catch (EngineRefused | RuntimeException | Error e) {
            if (fileRead != null) {
                fileRead.cancel();
            }
            throw e;
        }
    }

    /**
     * The database restored with the member's identity, and that dir placed before etcd starts on
     * it ({@link Placement#copyRestored}). The etcd forms a cluster of its own when the dir records
     * several members.
     */
    private static EmbeddedEtcdConfig restoreAndPlace(
            EngineInput in, EngineSettings settings, Path database, boolean skipHashCheck, Placement placement)
            throws EngineRefused {
        Instant t = in.phases().start();
        restore(in, database, skipHashCheck, placement.member(), in.dataDir(), in.walDir());
        in.phases().done("restoreOffline", t);
        placement.copyRestored(in);
        EmbeddedEtcdConfig config = in.etcdConfig(settings);
        return placement.needsNewCluster() ? config.withForceNewCluster() : config;
    }

    private static void restore(
            EngineInput in,
            Path database,
            boolean skipHashCheck,
            EtcdMember member,
            Path dataDir,
            Optional<Path> walDir)
            throws EngineRefused {
        try {
            new SnapshotRestorer(in.binaries(), in.scratch(), SnapshotRestorer.DEFAULT_TIMEOUT)
                    .restore(new SnapshotRestorer.Request(database, member, dataDir, walDir, skipHashCheck));
        } catch (WorkerException e) {
            throw refusedOn(e, "etcd could not restore the offline engine's database: ");
        }
    }

    private static ScratchEtcd start(EmbeddedEtcdConfig config, EngineSettings settings) throws EngineRefused {
        try {
            return ScratchEtcd.start(config.withGoGc(VERIFY_GOGC).withFastElection(), settings.callTimeout());
        } catch (WorkerException e) {
            throw refusedOn(e, "etcd could not start on the offline engine's database: ");
        }
    }

    /** A failure of etcd itself on this database is a refusal; anything else (a full disk) is not. */
    private static EngineRefused refusedOn(WorkerException e, String what) {
        if (e.code() != ErrorCode.ETCD_FAILURE) {
            throw e;
        }
        return new EngineRefused(ErrorCode.ETCD_FAILURE, what + e.getMessage(), e);
    }

    /** Stops the read-back if it still runs, and etcd. */
    @Override
    public void close() {
        fileRead.cancel();
        etcd.close();
    }
}
