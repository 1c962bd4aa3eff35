package io.etcdworkers.rebuild.verify;

import io.etcdworkers.etcd.EtcdGrpcClient;
import io.etcdworkers.rebuild.verify.KeyBounds.KeyRange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.OptionalLong;

/**
 * Every key a running etcd serves at one revision, read range by range ({@link RangeWalk}) and
 * digested, with what the read cost and the bounds it used (for whatever reads the same etcd
 * next, such as an extract).
 *
 * @param digest what etcd serves
 * @param cost requests, keys read and keys etcd counted
 * @param bounds the bounds the read used
 * @param scope whether every key was read, or a sample checked against sums ({@link WrittenKeyspaceCheck})
 * @param hashKv etcd's {@code HashKV}, when it was compared with the database file's
 */
public record KeyspaceRead(
        KeyspaceDigest digest, RangeWalk.Cost cost, KeyBounds bounds, VerifyScope scope, OptionalLong hashKv) {
    /** Keys per response at most. */
    public static final int PAGE = RangeWalk.PAGE;

    /**
     * The same read, checked against the database file too: etcd's HashKV, and its count of the
     * keys when it was asked for one ({@code counted} > 0: one more request, and etcd's index
     * visits every key for it).
     */
    KeyspaceRead withHashKv(long hash, long counted) {
        RangeWalk.Cost more = counted == 0
                ? cost
                : new RangeWalk.Cost(
                        cost.rangeRequests() + 1, cost.keysRead(), cost.keysCounted() + counted, cost.ranges());
        return new KeyspaceRead(digest, more, bounds, scope, OptionalLong.of(hash));
    }

    /** Reads the whole keyspace at {@code revision} over the ranges {@code bounds} makes. */
    public static KeyspaceRead of(EtcdGrpcClient client, long revision, KeyBounds bounds) {
        KeyspaceDigestBuilder digest = new KeyspaceDigestBuilder();
        try {
            RangeWalk.Cost cost = RangeWalk.walk(
                    client,
                    revision,
                    bounds,
                    KeyRange.FIRST_KEY,
                    KeyRange.TO_END,
                    k -> digest.add(
                            k.getKey(),
                            k.getValue(),
                            k.getCreateRevision(),
                            k.getModRevision(),
                            k.getVersion(),
                            k.getLease()));
            return new KeyspaceRead(digest.build(revision), cost, bounds, VerifyScope.ALL, OptionalLong.empty());
        } catch (IOException e) {
            throw new UncheckedIOException("a digest does no I/O", e);
        }
    }
}
