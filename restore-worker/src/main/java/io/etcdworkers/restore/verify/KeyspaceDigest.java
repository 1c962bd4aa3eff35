package io.etcdworkers.restore.verify;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.KeyValue;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.RangeResponse;
import io.etcdworkers.restore.etcd.EtcdGrpcClient;

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

    private static final int PAGE = 500;
    // No explicit sort: etcd returns a range in key order already, and asking it to sort makes it
    // read the WHOLE remaining range for every page before cutting it to the limit (quadratic).

    /** Reads the whole keyspace at {@code revision}, a page at a time. */
    public static KeyspaceDigest of(EtcdGrpcClient client, long revision) {
        KeyspaceDigestBuilder digest = new KeyspaceDigestBuilder();
        ByteString from = ByteString.copyFrom(new byte[] {0});
        ByteString toEnd = ByteString.copyFrom(new byte[] {0});
        while (true) {
            RangeResponse page = client.range(RangeRequest.newBuilder().setKey(from).setRangeEnd(toEnd)
                    .setRevision(revision).setLimit(PAGE).build());
            for (KeyValue k : page.getKvsList()) {
                digest.add(k.getKey(), k.getValue(), k.getCreateRevision(), k.getModRevision(), k.getVersion(),
                        k.getLease());
            }
            if (!page.getMore() || page.getKvsCount() == 0) {
                break;
            }
            from = page.getKvs(page.getKvsCount() - 1).getKey().concat(ByteString.copyFrom(new byte[] {0}));
        }
        return digest.build(revision);
    }

    /** The same digest, equal field by field: what a verification compares. */
    public boolean sameKeyspace(KeyspaceDigest other) {
        return revision == other.revision && keys == other.keys && leasedKeys == other.leasedKeys
                && kvSha256.equals(other.kvSha256) && metaSha256.equals(other.metaSha256);
    }
}
