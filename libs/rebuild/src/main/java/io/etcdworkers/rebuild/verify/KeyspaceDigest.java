package io.etcdworkers.rebuild.verify;

import io.etcdworkers.etcd.EtcdGrpcClient;

/**
 * A digest of every live key at one revision, defined so two etcds can be compared whatever
 * their history (the definition of {@code testdata/*&#47;expected/state.json}):
 * keys in ascending byte order; {@code kv} = SHA-256 over {@code u64(len(key)) key
 * u64(len(value)) value}; {@code meta} appends {@code u64(create) u64(mod) u64(version)
 * u64(lease)}; {@code metaNoLease} writes every lease as 0; {@code u64} is 8 bytes big-endian.
 *
 * @param revision the revision read
 * @param keys live keys
 * @param leasedKeys keys with a lease
 * @param kvSha256 hex digest of keys and values
 * @param metaSha256 hex digest with revisions, versions and leases
 * @param metaNoLeaseSha256 the same with leases as 0
 */
public record KeyspaceDigest(
        long revision, long keys, long leasedKeys, String kvSha256, String metaSha256, String metaNoLeaseSha256) {

    /**
     * Reads the whole keyspace at {@code revision} as one range paged from its start: etcd counts
     * the rest of the keyspace for every page, so this is for small keyspaces (tests); the
     * workers read with bounds ({@link KeyspaceRead}).
     */
    public static KeyspaceDigest of(EtcdGrpcClient client, long revision) {
        return KeyspaceRead.of(client, revision, KeyBounds.none()).digest();
    }

    /** The same digest, equal field by field: what a verification compares. */
    public boolean sameKeyspace(KeyspaceDigest other) {
        return revision == other.revision
                && keys == other.keys
                && leasedKeys == other.leasedKeys
                && kvSha256.equals(other.kvSha256)
                && metaSha256.equals(other.metaSha256);
    }
}
