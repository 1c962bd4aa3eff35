package io.etcdworkers.rebuild.offline;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The values the offline engine writes into etcd's database (etcd 3.4/3.5 {@code mvcc} and {@code
 * lease} packages): a key bucket value and a lease bucket key. The buckets' names and the revision
 * keys are etcd's schema ({@link io.etcdworkers.etcd.schema}).
 */
final class EtcdValues {

    private EtcdValues() {}

    /**
     * A key bucket value, {@code mvccpb.KeyValue}, encoded as protobuf-java encodes the message
     * (fields in number order, zeros and empty bytes left out), straight into one array: the
     * builder's copies of the key and the value, and its array, were a third of what writing the
     * database allocated.
     */
    static byte[] keyValue(byte[] key, long create, long mod, long version, byte[] value, long lease)
            throws IOException {
        int size = (key.length == 0 ? 0 : CodedOutputStream.computeByteArraySize(1, key))
                + int64Size(2, create)
                + int64Size(3, mod)
                + int64Size(4, version)
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
}
