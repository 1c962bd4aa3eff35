package io.etcdworkers.rebuild.engine;

/**
 * The seam between a rebuild and the way its deltas become a database: the replay into etcd and
 * the offline fold implement it; {@code --engine=auto} chains them. An engine gets its inputs
 * forward and hands back a handle; it never calls the rebuild that called it.
 */
public interface DatabaseEngine {

    /**
     * Builds the database in {@link EngineInput#scratch()}: applies every delta after the base.
     * The result is not trusted until {@link BuiltDatabase#verify()} passed.
     *
     * @throws EngineRefused the engine cannot build this database (another engine may)
     */
    BuiltDatabase build(EngineInput input) throws EngineRefused, InterruptedException;
}
