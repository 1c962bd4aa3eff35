package io.etcdworkers.rebuild.offline;

import io.etcdworkers.etcd.schema.Revision;
import java.util.Arrays;
import java.util.Comparator;

/** One live key of the finished fold, its value loaded: what the database and the digest are written from. */
record FoldedKey(byte[] key, byte[] value, long create, long mod, int sub, long version, long lease) {

    /** etcd's key bucket order: main, then sub revision. */
    static final Comparator<FoldedKey> BY_REVISION = (a, b) -> Revision.compare(a.mod, a.sub, b.mod, b.sub);

    /** The keyspace's order, as etcd serves a range. */
    static final Comparator<FoldedKey> BY_KEY = (a, b) -> Arrays.compareUnsigned(a.key, b.key);
}
