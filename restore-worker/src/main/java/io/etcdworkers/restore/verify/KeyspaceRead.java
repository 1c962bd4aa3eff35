package io.etcdworkers.restore.verify;

import io.etcdworkers.restore.etcd.EtcdGrpcClient;
import io.etcdworkers.restore.verify.KeyBounds.KeyRange;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Every key a running etcd serves at one revision, read range by range ({@link RangeWalk}) and
 * digested, with what the read cost and the bounds it used (for whatever reads the same etcd
 * next, such as an extract).
 *
 * @param digest what etcd serves
 * @param cost requests, keys read and keys etcd counted
 * @param bounds the bounds the read used
 */
public record KeyspaceRead(KeyspaceDigest digest, RangeWalk.Cost cost, KeyBounds bounds) {
    /** Keys per response at most. */
    public static final int PAGE = RangeWalk.PAGE;

    /** Reads the whole keyspace at {@code revision} over the ranges {@code bounds} makes. */
    public static KeyspaceRead of(EtcdGrpcClient client, long revision, KeyBounds bounds) {
        KeyspaceDigestBuilder digest = new KeyspaceDigestBuilder();
        try {
            RangeWalk.Cost cost = RangeWalk.walk(client, revision, bounds, KeyRange.FIRST_KEY, KeyRange.TO_END,
                    k -> digest.add(k.getKey(), k.getValue(), k.getCreateRevision(), k.getModRevision(),
                            k.getVersion(), k.getLease()));
            return new KeyspaceRead(digest.build(revision), cost, bounds);
        } catch (IOException e) {
            throw new UncheckedIOException("a digest does no I/O", e);
        }
    }
}
