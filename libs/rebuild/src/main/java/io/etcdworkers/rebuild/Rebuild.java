package io.etcdworkers.rebuild;

import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.files.FileTree;
import io.etcdworkers.files.ScratchDir;
import io.etcdworkers.rebuild.engine.BuiltDatabase;
import io.etcdworkers.rebuild.engine.EngineRefused;
import io.etcdworkers.rebuild.engine.VerifiedDatabase;
import io.etcdworkers.rebuild.engine.WrittenDatabase;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One rebuild in its scratch dir: the database is built; {@link #verify()} has a real etcd check
 * it. Closing removes everything the run put in the scratch (and WAL) dir, verified etcd included.
 */
public final class Rebuild implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Rebuild.class);

    private final ScratchDir scratchDir;
    private final Optional<Path> walDir;
    private BuiltDatabase built;
    private VerifiedDatabase verified;

    Rebuild(ScratchDir scratchDir, Optional<Path> walDir) {
        this.scratchDir = scratchDir;
        this.walDir = walDir;
    }

    void built(BuiltDatabase database) {
        this.built = database;
    }

    /** This run's private scratch dir. */
    public Path scratch() {
        return scratchDir.path();
    }

    /** The database file the engine wrote, before it is verified (see {@link BuiltDatabase#written()}). */
    public Optional<WrittenDatabase> written() {
        return built.written();
    }

    /** Verifies the database with a real etcd, which keeps running; closed with this rebuild. */
    public VerifiedDatabase verify() throws InterruptedException {
        try {
            verified = built.verify();
            return verified;
        } catch (EngineRefused e) {
            throw refused(e);
        }
    }

    /** {@code --engine=offline} asked for the one engine that refused: the run fails, saying what would work. */
    static WorkerException refused(EngineRefused e) {
        return new WorkerException(e.code(), e.getMessage() + " (--engine=replay would replay instead)", e);
    }

    @Override
    public void close() {
        if (verified != null) {
            verified.close();
        }
        if (built != null) {
            built.close();
        }
        // the WAL dir first: the scratch dir's lock is what marks it as this live run's
        walDir.ifPresent(wal -> {
            for (Path dir : List.of(wal, ScratchDir.walTmpOf(wal))) {
                try {
                    FileTree.delete(dir);
                } catch (IOException e) {
                    LOG.warn("cannot remove scratch WAL dir {}: {}", dir, e.toString());
                }
            }
        });
        if (closeQuietly(scratchDir)) {
            LOG.info("removed the run's scratch dir path={}", scratchDir.path());
        }
    }

    /** Removes the dir; what cannot be removed is logged at WARN, naming the path left behind. */
    static boolean closeQuietly(ScratchDir dir) {
        try {
            dir.close();
            return true;
        } catch (IOException e) {
            LOG.warn("cannot remove scratch dir {}, left behind: {}", dir.path(), e.toString());
            return false;
        }
    }
}
