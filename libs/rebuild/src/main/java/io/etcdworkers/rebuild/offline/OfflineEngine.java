package io.etcdworkers.rebuild.offline;

import io.etcdworkers.bolt.BoltFormatException;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.ScratchEtcd;
import io.etcdworkers.etcd.SnapshotRestorer;
import io.etcdworkers.files.DiskFull;
import io.etcdworkers.files.OwnerOnly;
import io.etcdworkers.rebuild.engine.BuiltDatabase;
import io.etcdworkers.rebuild.engine.DatabaseEngine;
import io.etcdworkers.rebuild.engine.Engine;
import io.etcdworkers.rebuild.engine.EngineInput;
import io.etcdworkers.rebuild.engine.EngineRefused;
import io.etcdworkers.rebuild.engine.EngineSettings;
import io.etcdworkers.rebuild.engine.FoldWork;
import io.etcdworkers.rebuild.engine.KeyPrefix;
import io.etcdworkers.rebuild.engine.RebuildOutcome;
import io.etcdworkers.rebuild.engine.RebuildStats;
import io.etcdworkers.rebuild.engine.ServedKeyspace;
import io.etcdworkers.rebuild.engine.VerifiedDatabase;
import io.etcdworkers.rebuild.engine.WrittenDatabase;
import io.etcdworkers.rebuild.verify.KeyspaceRead;
import io.etcdworkers.rebuild.verify.WrittenKeyspaceCheck;
import io.etcdworkers.store.ObjectStore;
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
 * copied into the placed dir before the verifying etcd starts on the restored one ({@link
 * VerifyingEtcd}). A base that is most likely the result as it is (compacted, no delta after it)
 * is restored and opened while the fold still reads it ({@link EarlyOpen}).
 *
 * <p>When the base's layout is not understood, or etcd cannot restore or open the database, or
 * serves anything else, this throws {@link EngineRefused}: {@code --engine=auto} then replays.
 */
public final class OfflineEngine implements DatabaseEngine {
    private static final Logger LOG = LoggerFactory.getLogger(OfflineEngine.class);

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
        EarlyOpen early = baseLikelyAsIs(in) ? EarlyOpen.start(in, settings) : null;
        OfflineResult folded;
        try {
            Instant t = in.phases().start();
            folded = fold(in);
            in.phases().done("offlineFold", t);
        } catch (EngineRefused | InterruptedException | RuntimeException | Error e) {
            if (early != null) {
                try {
                    early.abandon();
                } catch (RuntimeException cleanup) {
                    // the fold's failure is the one to report; a dir left behind goes with the run's
                    // scratch, and the restore removes its unplaced part on the way out
                    e.addSuppressed(cleanup);
                }
            }
            throw e;
        }
        FoldWork.EarlyStart earlyStart = early == null ? FoldWork.EarlyStart.NO : FoldWork.EarlyStart.USED;
        if (early != null && !folded.database().equals(in.baseFile())) {
            // the fold wrote a database of its own after all: etcd opens that one
            early.abandon();
            early = null;
            earlyStart = FoldWork.EarlyStart.SET_ASIDE;
        }
        // A phase boundary: everything the fold allocated is garbage now. Collect it before etcd
        // starts and maps the database, so a heap grown by decoding can shrink (serial and G1 give
        // memory back after a full collection) instead of adding to etcd's peak.
        System.gc();
        return new Folded(in, folded, early, earlyStart);
    }

    /**
     * Whether the fold will most likely find the base to be its result ({@link FoldWriter}'s own
     * test decides): every key is kept, no delta follows, the base has its hash trailer, and its
     * meta records a finished compaction at the revision its name gives and none scheduled after.
     * A base that cannot be read here is left to the fold to judge.
     */
    private boolean baseLikelyAsIs(EngineInput in) {
        if (!keys.isAll() || !in.selection().deltas().isEmpty()) {
            return false;
        }
        try {
            return SnapshotRestorer.hasHashTrailer(Files.size(in.baseFile()))
                    && BaseDatabase.compactedAt(
                            in.baseFile(), in.selection().base().name().lastRevision());
        } catch (IOException e) {
            LOG.debug("base {} not checked for an early restore: {}", in.baseFile(), e.toString());
            return false;
        }
    }

    private OfflineResult fold(EngineInput in) throws EngineRefused, InterruptedException {
        try {
            Path work = OwnerOnly.createDirectories(in.scratch().resolve("offline"));
            // a restore's database is restored here, read back and placed, never handed out: its
            // SHA-256 (0.1 s of this thread, as much of etcdutl's) would guard nothing the
            // read-back does not; a compaction uploads it as a full snapshot, trailer included
            boolean trailer = in.placement().isEmpty();
            return new FoldWriter(store, settings, clock, keys, trailer)
                    .build(in.selection(), in.baseFile(), work, in.scratch().resolve("offline.db"));
        } catch (BoltFormatException e) {
            throw new EngineRefused(
                    ErrorCode.UNSUPPORTED_OBJECT,
                    in.selection().base().key() + ": the offline engine does not understand this database: "
                            + e.getMessage(),
                    e);
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "the offline fold under " + in.scratch() + " failed: " + DiskFull.explain(e, in.scratch()),
                    e);
        }
    }

    /** The folded database, written, not yet opened by etcd (or being opened already, {@code early}). */
    private final class Folded implements BuiltDatabase {
        private final EngineInput in;
        private final OfflineResult folded;
        private final FoldWork.EarlyStart earlyStart;
        private EarlyOpen early;

        Folded(EngineInput in, OfflineResult folded, EarlyOpen early, FoldWork.EarlyStart earlyStart) {
            this.in = in;
            this.folded = folded;
            this.early = early;
            this.earlyStart = earlyStart;
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
            VerifyingEtcd opened;
            if (early != null) {
                EarlyOpen started = early;
                early = null;
                opened = started.get();
            } else {
                opened = VerifyingEtcd.open(in, settings, folded.database(), !folded.hashTrailer());
            }
            try {
                return check(opened.etcd(), opened.fileRead());
            } catch (EngineRefused | InterruptedException | RuntimeException | Error e) {
                opened.etcd().close();
                throw e;
            } finally {
                opened.fileRead().cancel();
            }
        }

        private VerifiedDatabase check(ScratchEtcd etcd, DatabaseReadBack fileRead)
                throws EngineRefused, InterruptedException {
            Instant t = in.phases().start();
            long revision = etcd.client().status().getHeader().getRevision();
            long expected = in.expectedRevision(folded.baseRevision(), folded.sequence());
            if (revision != expected || folded.finalRevision() != expected) {
                throw new EngineRefused(
                        ErrorCode.ETCD_FAILURE,
                        String.format(
                                "etcd opened the offline engine's "
                                        + "database at revision %d; the fold ended at %d and the backup at %d",
                                revision, folded.finalRevision(), expected),
                        null);
            }
            KeyspaceRead read;
            try {
                read = WrittenKeyspaceCheck.check(
                        etcd.client(),
                        revision,
                        folded.expected(),
                        folded.sums(),
                        folded.bounds(),
                        fileRead.get(),
                        settings.verifyScope(),
                        new Random());
            } catch (WrittenKeyspaceCheck.Mismatch e) {
                throw new EngineRefused(
                        ErrorCode.ETCD_FAILURE,
                        "the offline engine's database fails its " + "verification: " + e.getMessage(),
                        e);
            }
            ServedKeyspace.log(read, Engine.OFFLINE);
            in.phases().done("verify", t);
            RebuildStats stats = new RebuildStats(
                    folded.sequence(),
                    folded.leasesGranted(),
                    folded.databaseBytes(),
                    folded.duration(),
                    folded.fold().withEarlyStart(earlyStart));
            return new VerifiedDatabase(
                    etcd,
                    new RebuildOutcome(in.selection(), Engine.OFFLINE, "", folded.baseRevision(), stats, read),
                    Optional.of(folded.database()),
                    in,
                    in.placement().isPresent());
        }

        @Override
        public void close() {
            // an early etcd never handed over is stopped; the written file stays for the caller
            // (it is in the run's scratch dir)
            if (early != null) {
                early.abandon();
                early = null;
            }
        }
    }
}
