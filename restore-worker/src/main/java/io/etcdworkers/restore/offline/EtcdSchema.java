package io.etcdworkers.restore.offline;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The parts of etcd's database layout the offline engine reads and writes (etcd 3.4/3.5
 * {@code mvcc} and {@code lease} packages): bucket names, the compaction keys of {@code meta},
 * and the revision encoding of {@code key} bucket keys.
 */
final class EtcdSchema {
    static final byte[] KEY_BUCKET = ascii("key");
    static final byte[] META_BUCKET = ascii("meta");
    static final byte[] LEASE_BUCKET = ascii("lease");
    static final byte[] FINISHED_COMPACT_REV = ascii("finishedCompactRev");
    static final byte[] SCHEDULED_COMPACT_REV = ascii("scheduledCompactRev");

    /** {@code main} (8 bytes big-endian) {@code '_'} {@code sub} (8 bytes), then {@code 't'} for a tombstone. */
    static final int REV_BYTES = 17;
    private static final byte SEPARATOR = '_';
    private static final byte TOMBSTONE = 't';

    private EtcdSchema() {}

    static byte[] revision(long main, long sub) {
        return ByteBuffer.allocate(REV_BYTES).putLong(main).put(SEPARATOR).putLong(sub).array();
    }

    /** The key bucket's order of two entries: by main revision, then by sub revision. */
    static int compareRevisions(long mainA, int subA, long mainB, int subB) {
        int c = Long.compare(mainA, mainB);
        return c != 0 ? c : Integer.compare(subA, subB);
    }

    /** @return {main, sub} of a key bucket key, or null when it is not one */
    static long[] parseRevision(byte[] bucketKey) {
        if ((bucketKey.length != REV_BYTES && bucketKey.length != REV_BYTES + 1) || bucketKey[8] != SEPARATOR) {
            return null;
        }
        if (bucketKey.length == REV_BYTES + 1 && bucketKey[REV_BYTES] != TOMBSTONE) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(bucketKey);
        return new long[] {b.getLong(0), b.getLong(9)};
    }

    static boolean isTombstone(byte[] bucketKey) {
        return bucketKey.length == REV_BYTES + 1;
    }

    /** Lease bucket keys are the lease id, 8 bytes big-endian. */
    static byte[] leaseKey(long id) {
        return ByteBuffer.allocate(8).putLong(id).array();
    }

    static long leaseId(byte[] leaseKey) {
        return ByteBuffer.wrap(leaseKey).getLong();
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
