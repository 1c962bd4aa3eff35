package io.etcdworkers.rebuild.offline;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.files.ValueRef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * How one change moves one key's state, the way etcd's MVCC store applies it and at least as
 * strictly as a replay: a delta's PUT must continue the key's create revision and version, its
 * DELETE must hit a live key. A base entry is taken as it is (the base is etcd's own history).
 * The fold applies these in memory as events arrive, or later, one key partition at a time
 * ({@link PartitionFold}): a key's changes keep their order either way.
 */
final class KeyRules {
    private KeyRules() {}

    /** A base entry that is no tombstone: the key's state at that revision. */
    static void set(LiveKeys live, byte[] key, byte[] value, long create, long mod, int sub, long version, long lease)
            throws IOException {
        live.put(key, live.store(value), create, mod, sub, version, lease);
    }

    /** A base tombstone. */
    static void unset(LiveKeys live, byte[] key) throws IOException {
        live.remove(key);
    }

    /** A delta's PUT, which must continue the key; its value is where it already is ({@code value}). */
    static void put(
            LiveKeys live,
            String objectName,
            byte[] key,
            ValueRef value,
            long create,
            long mod,
            int sub,
            long version,
            long lease)
            throws IOException {
        LiveKey previous = live.get(key);
        long expectedCreate = previous == null ? mod : previous.create();
        long expectedVersion = previous == null ? 1 : previous.version() + 1;
        if (create != expectedCreate || version != expectedVersion) {
            throw new WorkerException(
                    ErrorCode.BACKUP_INCONSISTENT,
                    String.format(
                            "%s: revision %d puts key %s with create revision %d and version %d, but the restored state "
                                    + "gives %d and %d: the delta does not continue its base",
                            objectName, mod, printable(key), create, version, expectedCreate, expectedVersion));
        }
        live.put(key, value, expectedCreate, mod, sub, expectedVersion, lease);
    }

    /** A delta's DELETE, which must hit a live key. */
    static void delete(LiveKeys live, String objectName, byte[] key, long mod) throws IOException {
        if (live.remove(key) == null) {
            throw new WorkerException(
                    ErrorCode.BACKUP_INCONSISTENT,
                    String.format(
                            "%s: revision %d deletes key %s, which does not exist in the restored state: the delta does "
                                    + "not continue its base",
                            objectName, mod, printable(key)));
        }
    }

    static String printable(byte[] key) {
        return new String(key, StandardCharsets.UTF_8);
    }
}
