package io.etcdworkers.rebuild.verify;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.KeyValue;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.RangeResponse;
import io.etcdworkers.etcd.EtcdGrpcClient;
import io.etcdworkers.rebuild.verify.KeyBounds.KeyRange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Visits every key a running etcd serves at one revision in {@code [from, end)}, in key order,
 * over the ranges {@link KeyBounds} cuts it into: each range in pages of at most {@link #PAGE}
 * keys, so with bounds a page apart etcd counts each key once.
 */
public final class RangeWalk {
    /** Keys per response at most, also where the bounds are far apart (values can be megabytes). */
    public static final int PAGE = 500;

    private static final ByteString ZERO = ByteString.copyFrom(new byte[] {0});

    // No explicit sort: etcd returns a range in key order already, and asking it to sort makes it
    // read the WHOLE range for every page before cutting it to the limit.

    private RangeWalk() {}

    /** Receives each key in order. */
    @FunctionalInterface
    public interface Visitor {
        void visit(KeyValue kv) throws IOException;
    }

    /**
     * What a walk cost.
     *
     * @param rangeRequests range requests made
     * @param keysRead keys etcd returned (every key exactly once)
     * @param keysCounted the sum of the responses' {@code count}: the keys etcd visited to answer,
     *     about {@code keysRead} with good bounds, the square of it over pages of one unbounded range
     * @param ranges the ranges walked
     */
    public record Cost(long rangeRequests, long keysRead, long keysCounted, int ranges) {}

    /** Every key from {@code from} to {@code end} ({@link KeyRange#TO_END}: to the end of the keyspace). */
    public static Cost walk(
            EtcdGrpcClient client, long revision, KeyBounds bounds, ByteString from, ByteString end, Visitor visitor)
            throws IOException {
        long requests = 0;
        long keys = 0;
        long counted = 0;
        List<KeyRange> ranges = clip(bounds.ranges(), from, end);
        for (KeyRange range : ranges) {
            ByteString next = range.from();
            while (true) {
                RangeResponse page = client.range(RangeRequest.newBuilder()
                        .setKey(next)
                        .setRangeEnd(range.end())
                        .setRevision(revision)
                        .setLimit(PAGE)
                        .build());
                requests++;
                counted += page.getCount();
                for (KeyValue k : page.getKvsList()) {
                    visitor.visit(k);
                }
                keys += page.getKvsCount();
                if (!page.getMore() || page.getKvsCount() == 0) {
                    break;
                }
                next = page.getKvs(page.getKvsCount() - 1).getKey().concat(ZERO);
            }
        }
        return new Cost(requests, keys, counted, ranges.size());
    }

    /** The parts of {@code ranges} inside {@code [from, end)}. */
    static List<KeyRange> clip(List<KeyRange> ranges, ByteString from, ByteString end) {
        List<KeyRange> clipped = new ArrayList<>(ranges.size());
        for (KeyRange r : ranges) {
            ByteString lo = compare(r.from(), from) >= 0 ? r.from() : from;
            ByteString hi = endBefore(r.end(), end) ? r.end() : end;
            if (hi.equals(KeyRange.TO_END) || compare(lo, hi) < 0) {
                clipped.add(new KeyRange(lo, hi));
            }
        }
        return clipped;
    }

    /** Whether range end {@code a} comes before (or is) range end {@code b}; {@code TO_END} is last. */
    private static boolean endBefore(ByteString a, ByteString b) {
        if (a.equals(KeyRange.TO_END)) {
            return false;
        }
        return b.equals(KeyRange.TO_END) || compare(a, b) <= 0;
    }

    private static int compare(ByteString a, ByteString b) {
        return ByteString.unsignedLexicographicalComparator().compare(a, b);
    }
}
