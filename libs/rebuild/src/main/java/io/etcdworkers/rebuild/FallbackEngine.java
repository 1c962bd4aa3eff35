package io.etcdworkers.rebuild;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.rebuild.engine.BuiltDatabase;
import io.etcdworkers.rebuild.engine.DatabaseEngine;
import io.etcdworkers.rebuild.engine.Engine;
import io.etcdworkers.rebuild.engine.EngineInput;
import io.etcdworkers.rebuild.engine.EngineRefused;
import io.etcdworkers.rebuild.engine.VerifiedDatabase;
import io.etcdworkers.rebuild.engine.WrittenDatabase;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --engine=auto}: the first engine (offline), and the second (the replay) when the first
 * refuses, while building or while being verified. The outcome then names the replay and says
 * why in its note.
 */
final class FallbackEngine implements DatabaseEngine {
    private static final Logger LOG = LoggerFactory.getLogger(FallbackEngine.class);

    private final DatabaseEngine first;
    private final DatabaseEngine second;

    FallbackEngine(DatabaseEngine first, DatabaseEngine second) {
        this.first = first;
        this.second = second;
    }

    @Override
    public BuiltDatabase build(EngineInput in) throws EngineRefused, InterruptedException {
        try {
            return new Fallible(first.build(in), in);
        } catch (EngineRefused e) {
            return new Fallible(fallBack(in, e), in, e.getMessage());
        }
    }

    private BuiltDatabase fallBack(EngineInput in, EngineRefused refused) throws EngineRefused, InterruptedException {
        if (Thread.interrupted()) {
            // a stop signal arrived meanwhile: the run ends here, it does not start the other engine
            InterruptedException stop = new InterruptedException("stopped before falling back to the replay");
            stop.addSuppressed(refused);
            throw stop;
        }
        LOG.warn("offline engine refused, falling back to the replay: {}", refused.getMessage());
        try {
            // the first engine may have placed its database already; the replay's is placed after it
            in.clearBuiltDirs();
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO, "cannot clear " + in.dataDir() + " for the replay: " + e.getMessage(), e);
        }
        return second.build(in);
    }

    /** The first engine's database, replaced by the second's if its verification refuses it. */
    private final class Fallible implements BuiltDatabase {
        private final EngineInput in;
        private BuiltDatabase current;
        private String note;

        Fallible(BuiltDatabase built, EngineInput in) {
            this(built, in, "");
        }

        Fallible(BuiltDatabase built, EngineInput in, String note) {
            this.current = built;
            this.in = in;
            this.note = note;
        }

        @Override
        public Engine engine() {
            return current.engine();
        }

        @Override
        public Optional<WrittenDatabase> written() {
            return current.written();
        }

        @Override
        public VerifiedDatabase verify() throws EngineRefused, InterruptedException {
            VerifiedDatabase verified;
            try {
                verified = current.verify();
            } catch (EngineRefused e) {
                if (!note.isEmpty()) {
                    throw e;
                }
                current.close();
                note = e.getMessage();
                current = fallBack(in, e);
                verified = current.verify();
            }
            return note.isEmpty() ? verified : verified.withNote(note);
        }

        @Override
        public void close() {
            current.close();
        }
    }
}
