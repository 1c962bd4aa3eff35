package io.etcdworkers.restore.verify;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.KeyValue;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.RangeResponse;
import io.etcdworkers.restore.etcd.EtcdGrpcClient;
import io.etcdworkers.restore.verify.KeyBounds.KeyRange;

/**
 * Every key a running etcd serves at one revision, read range by range ({@link KeyBounds}) and
 * digested, with what the read cost: requests and keys returned. Each range is read in pages of
 * at most {@link #PAGE} keys; with bounds a page apart that is one request per range, and etcd
 * counts each key once.
 *
 * @param digest what etcd serves
 * @param rangeRequests range requests made
 * @param keysRead keys etcd returned (every key exactly once)
 * @param keysCounted the sum of the responses' {@code count}: the keys etcd visited to answer,
 *     about {@code keysRead} with good bounds, the square of it over pages of one unbounded range
 * @param ranges the ranges the bounds made
 */
public record KeyspaceRead(KeyspaceDigest digest, long rangeRequests, long keysRead, long keysCounted, int ranges) {
    /** Keys per response at most, also where the bounds are far apart (values can be megabytes). */
    public static final int PAGE = 500;

    private static final ByteString ZERO = ByteString.copyFrom(new byte[] {0});

    // No explicit sort: etcd returns a range in key order already, and asking it to sort makes it
    // read the WHOLE range for every page before cutting it to the limit.

    /** Reads the whole keyspace at {@code revision} over the ranges {@code bounds} makes. */
    public static KeyspaceRead of(EtcdGrpcClient client, long revision, KeyBounds bounds) {
        KeyspaceDigestBuilder digest = new KeyspaceDigestBuilder();
        long requests = 0;
        long keys = 0;
        long counted = 0;
        for (KeyRange range : bounds.ranges()) {
            ByteString from = range.from();
            while (true) {
                RangeResponse page = client.range(RangeRequest.newBuilder().setKey(from).setRangeEnd(range.end())
                        .setRevision(revision).setLimit(PAGE).build());
                requests++;
                counted += page.getCount();
                for (KeyValue k : page.getKvsList()) {
                    digest.add(k.getKey(), k.getValue(), k.getCreateRevision(), k.getModRevision(), k.getVersion(),
                            k.getLease());
                }
                keys += page.getKvsCount();
                if (!page.getMore() || page.getKvsCount() == 0) {
                    break;
                }
                from = page.getKvs(page.getKvsCount() - 1).getKey().concat(ZERO);
            }
        }
        return new KeyspaceRead(digest.build(revision), requests, keys, counted, bounds.size() + 1);
    }
}
