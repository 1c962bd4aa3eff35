package io.etcdworkers.rebuild.offline;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
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

    /**
     * A key bucket value, {@code mvccpb.KeyValue}, encoded as protobuf-java encodes the message
     * (fields in number order, zeros and empty bytes left out), straight into one array: the
     * builder's copies of the key and the value, and its array, were a third of what writing the
     * database allocated.
     */
    static byte[] keyValue(byte[] key, long create, long mod, long version, byte[] value, long lease)
            throws IOException {
        int size = (key.length == 0 ? 0 : CodedOutputStream.computeByteArraySize(1, key))
                + int64Size(2, create) + int64Size(3, mod) + int64Size(4, version)
                + (value.length == 0 ? 0 : CodedOutputStream.computeByteArraySize(5, value))
                + int64Size(6, lease);
        byte[] out = new byte[size];
        CodedOutputStream coded = CodedOutputStream.newInstance(out);
        if (key.length > 0) {
            coded.writeByteArray(1, key);
        }
        writeInt64(coded, 2, create);
        writeInt64(coded, 3, mod);
        writeInt64(coded, 4, version);
        if (value.length > 0) {
            coded.writeByteArray(5, value);
        }
        writeInt64(coded, 6, lease);
        coded.checkNoSpaceLeft();
        return out;
    }

    private static int int64Size(int field, long value) {
        return value == 0 ? 0 : CodedOutputStream.computeInt64Size(field, value);
    }

    private static void writeInt64(CodedOutputStream coded, int field, long value) throws IOException {
        if (value != 0) {
            coded.writeInt64(field, value);
        }
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
