package io.etcdworkers.rebuild.offline;

import io.etcdworkers.etcd.schema.Revision;
import io.etcdworkers.files.ValueFile;

/**
 * The latest state of one live key, its value in a {@link ValueFile}: the delta's own, where a
 * fetch thread decoded it, or the fold's spill.
 *
 * @param key the key
 * @param create create revision
 * @param mod mod revision (the main revision of its database entry)
 * @param sub the sub revision of that entry: its position among the changes of its revision
 * @param version version
 * @param lease lease id, 0 for none
 * @param values the file holding the value; null for an empty value
 * @param valueOffset where its value starts in that file
 * @param valueLength the value's length
 */
record LiveKey(
        byte[] key,
        long create,
        long mod,
        int sub,
        long version,
        long lease,
        ValueFile values,
        long valueOffset,
        int valueLength) {

    LiveKey movedTo(ValueFile file, long offset) {
        return new LiveKey(key, create, mod, sub, version, lease, file, offset, valueLength);
    }

    /** Orders entries as etcd's key bucket does: by main then sub revision. */
    static int byRevision(LiveKey a, LiveKey b) {
        return Revision.compare(a.mod, a.sub, b.mod, b.sub);
    }
}
