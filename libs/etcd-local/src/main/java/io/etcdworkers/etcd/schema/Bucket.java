package io.etcdworkers.etcd.schema;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The buckets of etcd's backend database (its bbolt file) that the workers read or write, named
 * as etcd names them ({@code server/storage/schema/bucket.go} in 3.5, {@code mvcc} and {@code
 * lease} in 3.4). Every other bucket of a base is copied as it is.
 */
public enum Bucket {
    /** Every revision of every key: {@link Revision} keys, {@code mvccpb.KeyValue} values. */
    KEY("key"),
    /** The consistent index, the term and the compaction revisions ({@link MetaKey}). */
    META("meta"),
    /** The leases: their id (8 bytes big-endian) as key, {@code leasepb.Lease} as value. */
    LEASE("lease");

    private final String name;
    private final byte[] bytes;

    Bucket(String name) {
        this.name = name;
        this.bytes = name.getBytes(StandardCharsets.US_ASCII);
    }

    /** The bucket's name in the file (a copy). */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** Whether {@code bucketName} is this bucket's name. */
    public boolean is(byte[] bucketName) {
        return Arrays.equals(bytes, bucketName);
    }

    /** The name, for messages. */
    public String label() {
        return name;
    }
}
