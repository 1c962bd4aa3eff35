package io.etcdworkers.rebuild.replay;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.ScratchEtcd;
import io.etcdworkers.etcd.SnapshotRestorer;
import io.etcdworkers.rebuild.engine.BuiltDatabase;
import io.etcdworkers.rebuild.engine.DatabaseEngine;
import io.etcdworkers.rebuild.engine.Engine;
import io.etcdworkers.rebuild.engine.EngineInput;
import io.etcdworkers.rebuild.engine.EngineSettings;
import io.etcdworkers.rebuild.engine.RebuildOutcome;
import io.etcdworkers.rebuild.engine.RebuildStats;
import io.etcdworkers.rebuild.engine.ServedKeyspace;
import io.etcdworkers.rebuild.engine.VerifiedDatabase;
import io.etcdworkers.rebuild.engine.WrittenDatabase;
import io.etcdworkers.rebuild.verify.DatabaseKeys;
import io.etcdworkers.rebuild.verify.KeyBounds;
import io.etcdworkers.rebuild.verify.KeySample;
import io.etcdworkers.rebuild.verify.KeyspaceRead;
import io.etcdworkers.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * The replay engine: restore the base with etcd's own {@code snapshot restore}, start a scratch
 * etcd on it and replay every revision after the base into it (see {@link DeltaReplayer}). The
 * database lives in that etcd; verifying it checks the revision and digests what it serves.
 */
public final class ReplayEngine implements DatabaseEngine {
    /**
     * Keys sampled from the base and the deltas to bound the verification's ranges: about 1 MB
     * for keys of 60 bytes; pages stay near {@link KeyspaceRead#PAGE} keys up to ~8 million keys.
     */
    static final int SAMPLED_KEYS = 16_384;

    private final ObjectStore store;
    private final EngineSettings settings;
    private final ReplayConfig config;
    private final Clock clock;

    public ReplayEngine(ObjectStore store, EngineSettings settings, ReplayConfig config, Clock clock) {
        this.store = store;
        this.settings = settings;
        this.config = config;
        this.clock = clock;
    }

    @Override
    public BuiltDatabase build(EngineInput in) throws InterruptedException {
        Instant t = in.phases().start();
        new SnapshotRestorer(in.binaries(), in.scratch(), SnapshotRestorer.DEFAULT_TIMEOUT)
                .restore(new SnapshotRestorer.Request(
                        in.baseFile(), in.member(), in.dataDir(), in.walDir(), in.skipHashCheck()));
        KeySample keys = new KeySample(SAMPLED_KEYS);
        DatabaseKeys.sample(in.baseFile(), keys);
        delete(in.baseFile());
        in.phases().done("restoreBase", t);
        ScratchEtcd etcd = ScratchEtcd.start(in.etcdConfig(settings), settings.callTimeout());
        try {
            long baseRevision = etcd.client().status().getHeader().getRevision();
            t = in.phases().start();
            RebuildStats stats =
                    new DeltaReplayer(store, etcd, settings, config, clock).replay(in.selection(), in.scratch(), keys);
            in.phases().done("replay", t);
            return new Replayed(in, etcd, baseRevision, stats, keys.bounds(KeyspaceRead.PAGE));
        } catch (RuntimeException | Error | InterruptedException e) {
            etcd.close();
            throw e;
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot remove " + file + ": " + e.getMessage(), e);
        }
    }

    /** The replayed database, in the etcd that replayed it. */
    private static final class Replayed implements BuiltDatabase {
        private final EngineInput in;
        private final ScratchEtcd etcd;
        private final long baseRevision;
        private final RebuildStats stats;
        private final KeyBounds bounds;
        private boolean handedOver;

        Replayed(EngineInput in, ScratchEtcd etcd, long baseRevision, RebuildStats stats, KeyBounds bounds) {
            this.in = in;
            this.etcd = etcd;
            this.baseRevision = baseRevision;
            this.stats = stats;
            this.bounds = bounds;
        }

        @Override
        public Engine engine() {
            return Engine.REPLAY;
        }

        @Override
        public Optional<WrittenDatabase> written() {
            return Optional.empty();
        }

        @Override
        public VerifiedDatabase verify() {
            Instant t = in.phases().start();
            long expected = in.expectedRevision(baseRevision, stats.sequence());
            if (stats.sequence().finalRevision() != expected) {
                throw new WorkerException(
                        ErrorCode.BACKUP_INCONSISTENT,
                        "restored etcd is at revision " + stats.sequence().finalRevision() + " but the backup ends at "
                                + expected);
            }
            KeyspaceRead read = ServedKeyspace.read(etcd, expected, bounds);
            ServedKeyspace.log(read, Engine.REPLAY);
            in.phases().done("verify", t);
            handedOver = true;
            return new VerifiedDatabase(
                    etcd,
                    new RebuildOutcome(in.selection(), Engine.REPLAY, "", baseRevision, stats, read),
                    Optional.empty(),
                    in);
        }

        @Override
        public void close() {
            if (!handedOver) {
                etcd.close();
            }
        }
    }
}
