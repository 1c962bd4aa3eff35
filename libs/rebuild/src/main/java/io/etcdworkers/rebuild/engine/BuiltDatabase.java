package io.etcdworkers.rebuild.engine;

import java.util.Optional;

/** A database an engine built, not yet verified. Closing it stops whatever it still runs. */
public interface BuiltDatabase extends AutoCloseable {

    /** Which engine built it. */
    Engine engine();

    /**
     * The database file the engine wrote, when it wrote one (the offline engine): it may be read
     * (uploaded) before {@link #verify()} returns, but not trusted until then. Empty when the
     * database lives in a running etcd (the replay).
     */
    Optional<WrittenDatabase> written();

    /**
     * Has a real etcd open the database and checks what it serves: the revision the chain ends at
     * and, offline, exactly the keyspace the fold computed.
     *
     * @throws EngineRefused etcd cannot open it or serves anything else (offline only)
     */
    VerifiedDatabase verify() throws EngineRefused, InterruptedException;

    @Override
    void close();
}
