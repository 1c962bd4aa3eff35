package io.etcdworkers.rebuild.offline;

import java.io.IOException;
import java.util.Set;

/**
 * The live keys a fold ended with, read in either of the two orders the written database needs:
 * revision order for etcd's key bucket, key order for the digest the verification compares with.
 * Held in memory ({@link LiveKeys}) or in sorted runs on disk ({@link PartitionedKeys}).
 */
interface FoldedKeys extends AutoCloseable {

    /** Receives the keys one by one. */
    @FunctionalInterface
    interface Visitor {
        void visit(FoldedKey key) throws IOException;
    }

    long size();

    /** Every non-zero lease a live key names. */
    Set<Long> leaseIds();

    void byRevision(Visitor visitor) throws IOException;

    void byKey(Visitor visitor) throws IOException;

    /**
     * Makes {@link #byRevision} and {@link #byKey} safe to run at the same time on two threads (the
     * database's key bucket on one, the digest on the other). Nothing may change the keys after it.
     */
    void settle() throws IOException;

    @Override
    void close() throws IOException;
}
