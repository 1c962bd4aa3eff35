package io.etcdworkers.restore.offline;

/**
 * The latest state of one live key, its value in the {@link ValueSpill}.
 *
 * @param key the key
 * @param create create revision
 * @param mod mod revision (the main revision of its database entry)
 * @param sub the sub revision of that entry: its position among the changes of its revision
 * @param version version
 * @param lease lease id, 0 for none
 * @param valueOffset where its value starts in the spill file
 * @param valueLength the value's length
 */
record LiveKey(byte[] key, long create, long mod, int sub, long version, long lease, long valueOffset,
        int valueLength) {

    LiveKey movedTo(long offset) {
        return new LiveKey(key, create, mod, sub, version, lease, offset, valueLength);
    }

    /** Orders entries as etcd's key bucket does: by main then sub revision. */
    static int byRevision(LiveKey a, LiveKey b) {
        return EtcdSchema.compareRevisions(a.mod, a.sub, b.mod, b.sub);
    }
}
