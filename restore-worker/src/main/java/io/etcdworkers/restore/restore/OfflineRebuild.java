package io.etcdworkers.restore.restore;

import io.etcdworkers.restore.bolt.BoltFormatException;
import io.etcdworkers.restore.error.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.etcd.EtcdBinaries;
import io.etcdworkers.restore.etcd.SnapshotRestorer;
import io.etcdworkers.restore.offline.OfflineEngine;
import io.etcdworkers.restore.offline.OfflineResult;
import io.etcdworkers.restore.replay.DefragStats;
import io.etcdworkers.restore.replay.ReplayStats;
import io.etcdworkers.restore.replay.ScratchEtcd;
import io.etcdworkers.restore.snapshot.SnapshotSelection;
import io.etcdworkers.restore.store.ObjectStore;
import io.etcdworkers.restore.verify.KeyspaceDigest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The restore with the offline engine: fold the deltas into a compacted database without etcd,
 * turn it into a scratch data dir with etcd's own {@code snapshot restore}, then start a real etcd
 * on it and require that it serves exactly the keyspace the fold computed, at the expected
 * revision. Only then does the caller get to use it, and the same database file is restored
 * again into the dir that is placed.
 *
 * <p>When etcd cannot restore or open the database, or serves anything else, or the base's
 * layout is not understood, this throws {@link Refused}: {@code --engine=auto} then replays.
 */
final class OfflineRebuild {
    private static final Logger LOG = LoggerFactory.getLogger(OfflineRebuild.class);

    /** The offline engine cannot vouch for its database; the message says why. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient ErrorCode code;

        Refused(ErrorCode code, String message, Throwable cause) {
            super(message, cause);
            this.code = code;
        }

        ErrorCode code() {
            return code;
        }
    }

    /**
     * The verifying etcd only serves reads for a second or two: a tight Go heap costs little CPU
     * there and keeps it from adding tens of MB of garbage on top of the database it maps
     * (measured at 300k: etcd 265 -> 219 MB, the whole tree 457 -> 393 MB).
     */
    static final int VERIFY_GOGC = 25;

    private final RestoreService service;
    private final ObjectStore store;
    private final RestoreConfig config;
    private final Clock clock;

    OfflineRebuild(RestoreService service, ObjectStore store, RestoreConfig config, Clock clock) {
        this.service = service;
        this.store = store;
        this.config = config;
        this.clock = clock;
    }

    RestoreOutcome rebuild(EtcdBinaries binaries, SnapshotSelection selection, Path baseFile, Path dataDir,
            Optional<Path> walDir, Path scratch, RestoreService.WhileRunning whileRunning, Optional<Path> placeAt)
            throws Refused, IOException, InterruptedException {
        Instant t = clock.instant();
        OfflineResult folded = fold(selection, baseFile, scratch);
        service.phase("offlineFold", t);
        // A phase boundary: everything the fold allocated is garbage now. Collect it before etcd
        // starts and maps the database, so a heap grown by decoding can shrink (serial and G1 give
        // memory back after a full collection) instead of adding to etcd's peak.
        System.gc();
        whileRunning.offlineDatabase(folded.database(), folded.finalRevision());
        t = clock.instant();
        try {
            new SnapshotRestorer(binaries, scratch, SnapshotRestorer.DEFAULT_TIMEOUT).restore(new SnapshotRestorer.Request(
                    folded.database(), config.member(), dataDir, walDir, false));
        } catch (WorkerException e) {
            if (e.code() != ErrorCode.ETCD_FAILURE) {
                throw e;
            }
            throw new Refused(ErrorCode.ETCD_FAILURE, "etcd could not restore the offline engine's database: "
                    + e.getMessage(), e);
        }
        phase("restoreOffline", t);
        try (ScratchEtcd etcd = start(binaries, dataDir, walDir, scratch)) {
            t = clock.instant();
            long revision = etcd.client().status().getHeader().getRevision();
            long expected = Math.max(selection.lastRevision(), folded.baseRevision());
            if (revision != expected || folded.finalRevision() != expected) {
                throw new Refused(ErrorCode.ETCD_FAILURE, String.format("etcd opened the offline engine's database "
                        + "at revision %d; the fold ended at %d and the backup at %d", revision,
                        folded.finalRevision(), expected), null);
            }
            KeyspaceDigest digest = KeyspaceDigest.of(etcd.client(), revision);
            if (!digest.sameKeyspace(folded.expected())) {
                throw new Refused(ErrorCode.ETCD_FAILURE, String.format("etcd serves a different keyspace from the "
                        + "offline engine's database than the fold computed: %d keys kv %s meta %s, expected %d keys "
                        + "kv %s meta %s", digest.keys(), digest.kvSha256(), digest.metaSha256(),
                        folded.expected().keys(), folded.expected().kvSha256(), folded.expected().metaSha256()), null);
            }
            LOG.info("verified revision={} keys={} kvSha256={} metaSha256={} engine=offline", digest.revision(),
                    digest.keys(), digest.kvSha256(), digest.metaSha256());
            service.phase("verify", t);
            RestoreOutcome outcome = new RestoreOutcome(selection, folded.baseRevision(), stats(folded), digest,
                    dataDir, service.phases(), "offline", "");
            whileRunning.accept(etcd, outcome);
            t = clock.instant();
            etcd.stopProcess();
            service.phase("stopEtcd", t);
            if (placeAt.isEmpty()) {
                Files.deleteIfExists(folded.database());
                return outcome.withPhases(dataDir, service.phases());
            }
            // the very file the verifying etcd was restored from and served
            PlacedDataDir placed = service.place(binaries, folded.database(), dataDir, walDir, scratch, placeAt.get());
            return outcome.withPhases(placeAt.get(), service.phases()).withPlaced(placed);
        }
    }

    private OfflineResult fold(SnapshotSelection selection, Path baseFile, Path scratch)
            throws Refused, IOException, InterruptedException {
        Path work = Files.createDirectories(scratch.resolve("offline"));
        try {
            return new OfflineEngine(store, config.replay(), clock).build(selection, baseFile, work,
                    scratch.resolve("offline.db"));
        } catch (BoltFormatException e) {
            throw new Refused(ErrorCode.UNSUPPORTED_OBJECT, selection.base().key()
                    + ": the offline engine does not understand this database: " + e.getMessage(), e);
        }
    }

    private ScratchEtcd start(EtcdBinaries binaries, Path dataDir, Optional<Path> walDir, Path scratch)
            throws Refused, InterruptedException {
        try {
            return ScratchEtcd.start(service.etcdConfig(binaries, dataDir, walDir, scratch).withGoGc(VERIFY_GOGC),
                    config.callTimeout());
        } catch (WorkerException e) {
            if (e.code() != ErrorCode.ETCD_FAILURE) {
                throw e;
            }
            throw new Refused(ErrorCode.ETCD_FAILURE, "etcd could not start on the offline engine's database: "
                    + e.getMessage(), e);
        }
    }

    private void phase(String name, Instant started) {
        service.phase(name, started);
    }

    /** The offline run in the result's replay fields: nothing replayed into etcd, nothing defragmented. */
    private static ReplayStats stats(OfflineResult r) {
        return new ReplayStats(r.deltas(), r.revisions(), r.events(), r.skippedEvents(), r.finalRevision(),
                r.largestGroupEvents(), r.largestGroupBytes(), r.leasesGranted(), 0, 0,
                new DefragStats(0, 0, 0, Duration.ZERO, r.databaseBytes(), "none"), r.databaseBytes(), r.duration());
    }
}
