package io.etcdworkers.rebuild.engine;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.MaintenanceSnapshot;
import io.etcdworkers.etcd.ScratchEtcd;
import io.etcdworkers.files.FileTree;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A rebuilt database that a real etcd opened and served as expected; that etcd still runs until
 * {@link #stopEtcd()} or {@link #close()}. What the caller does with it (place it as a data dir,
 * {@link Placement#complete}, or upload it as a full snapshot) is the caller's.
 */
public final class VerifiedDatabase implements AutoCloseable {
    private final ScratchEtcd etcd;
    private final RebuildOutcome outcome;
    private final Optional<Path> file;
    private final EngineInput input;
    private final boolean placed;

    /**
     * @param file the database file the verifying etcd was restored from, when there is one
     */
    public VerifiedDatabase(ScratchEtcd etcd, RebuildOutcome outcome, Optional<Path> file, EngineInput input) {
        this(etcd, outcome, file, input, false);
    }

    /**
     * @param placed the input's {@link Placement} holds this very database already: a copy of the
     *     dir the verifying etcd ran on, taken before it started
     */
    public VerifiedDatabase(
            ScratchEtcd etcd, RebuildOutcome outcome, Optional<Path> file, EngineInput input, boolean placed) {
        this.etcd = etcd;
        this.outcome = outcome;
        this.file = file;
        this.input = input;
        this.placed = placed;
        if (placed && input.placement().isEmpty()) {
            throw new IllegalArgumentException("placed, but the rebuild has no placement");
        }
    }

    /** The rebuild's inputs: where its etcd runs, and the placement it was built for. */
    EngineInput input() {
        return input;
    }

    /** The verifying etcd, running. */
    public ScratchEtcd etcd() {
        return etcd;
    }

    public RebuildOutcome outcome() {
        return outcome;
    }

    /** The same database, with the reason the offline engine was passed over. */
    public VerifiedDatabase withNote(String engineNote) {
        return new VerifiedDatabase(etcd, outcome.withNote(engineNote), file, input, placed);
    }

    /**
     * Whether the placement's data dir ({@link EngineInput#placement()}) already holds this database,
     * with the member's identity (copied before the verifying etcd started, {@link
     * Placement#copyRestored}); else {@link Placement#complete} restores it there.
     */
    public boolean placed() {
        return placed;
    }

    /**
     * The verified database as a file with its SHA-256 trailer: the very file the verifying etcd
     * was restored from (offline, for a compaction; a restore's is {@linkplain #placed placed}
     * already and has none), else a maintenance snapshot of the running etcd streamed into
     * {@code snapshotFile} (replay; phase {@code snapshotVerified}).
     */
    public Path databaseFile(Path snapshotFile, Duration timeout) {
        if (file.isPresent()) {
            return file.get();
        }
        Instant t = input.phases().start();
        MaintenanceSnapshot.save(etcd.client(), snapshotFile, timeout);
        input.phases().done("snapshotVerified", t);
        return snapshotFile;
    }

    /**
     * Stops etcd cleanly and removes its data and WAL dirs, so the disk holds one copy of the
     * database besides the file (phase {@code stopEtcd}).
     */
    public void stopEtcd() {
        Instant t = input.phases().start();
        etcd.stopProcess();
        try {
            FileTree.delete(input.dataDir());
            if (input.walDir().isPresent()) {
                FileTree.delete(input.walDir().get());
            }
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot remove the scratch etcd's data dir " + input.dataDir() + ": " + e.getMessage(),
                    e);
        }
        input.phases().done("stopEtcd", t);
    }

    @Override
    public void close() {
        etcd.close();
    }
}
