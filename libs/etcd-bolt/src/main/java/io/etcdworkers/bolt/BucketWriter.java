package io.etcdworkers.bolt;

import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * Writes one top-level bucket of a {@link BoltWriter}: keys strictly ascending (unsigned
 * bytewise). {@link #close()} ends the bucket. Keys and values are copied, so the caller may
 * reuse its arrays.
 */
public final class BucketWriter implements AutoCloseable {
    /** bbolt's MaxKeySize. */
    public static final int MAX_KEY_SIZE = 32768;
    /** Far below bbolt's 2 GiB, and far above etcd's request limits: keeps any page below 1 GiB. */
    public static final int MAX_VALUE_SIZE = 256 << 20;

    private final BoltWriter owner;
    private final byte[] name;
    private final TreeBuilder tree;
    private byte[] lastKey;
    private long sequence;
    private long entries;
    private boolean closed;

    BucketWriter(BoltWriter owner, byte[] name, TreeBuilder tree) {
        this.owner = owner;
        this.name = name;
        this.tree = tree;
    }

    /**
     * @throws IllegalArgumentException when the key is not above the previous one, empty, or
     *     too large, or the value is too large
     */
    public void put(byte[] key, byte[] value) throws IOException {
        add(key, value, true);
    }

    /**
     * {@link #put}, taking both arrays over: the caller never touches them again, so they are not
     * copied (the key bucket's values are most of a database's bytes).
     */
    public void putOwned(byte[] key, byte[] value) throws IOException {
        add(key, value, false);
    }

    private void add(byte[] key, byte[] value, boolean copy) throws IOException {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (closed) {
            throw new IllegalStateException("bucket " + Keys.show(name) + " is closed");
        }
        checkKey(key, "key");
        if (value.length > MAX_VALUE_SIZE) {
            throw new IllegalArgumentException("value of " + value.length + " bytes is larger than " + MAX_VALUE_SIZE);
        }
        if (lastKey != null && Arrays.compareUnsigned(lastKey, key) >= 0) {
            throw new IllegalArgumentException("keys must be strictly ascending in bucket " + Keys.show(name) + ": "
                    + Keys.show(key) + " after " + Keys.show(lastKey));
        }
        byte[] k = copy ? key.clone() : key;
        byte[] v = copy ? value.clone() : value;
        owner.guard(() -> tree.add(NodeBuilder.Element.leaf(k, v, 0)));
        lastKey = k;
        entries++;
    }

    /** The bucket's sequence (bbolt's NextSequence counter); 0 unless set. */
    public void setSequence(long seq) {
        this.sequence = seq;
    }

    public long entries() {
        return entries;
    }

    /** Ends the bucket: writes the rest of its tree. Idempotent. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        long[] root = new long[1];
        owner.guard(() -> root[0] = tree.finish());
        owner.bucketClosed(this, name, root[0], sequence);
    }

    static void checkKey(byte[] key, String what) {
        if (key.length == 0 || key.length > MAX_KEY_SIZE) {
            throw new IllegalArgumentException(what + " must be 1.." + MAX_KEY_SIZE + " bytes, not " + key.length);
        }
    }
}
