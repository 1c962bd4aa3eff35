package io.etcdworkers.etcd.schema;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * A revision of etcd's MVCC store, as etcd's {@code mvcc} package has it ({@code revision.go}):
 * {@code main}, the store's revision (one per transaction), and {@code sub}, the change's position
 * within it. As a key of the {@link Bucket#KEY} bucket it is {@value #BYTES} bytes: {@code main}
 * (8 bytes big-endian), {@code '_'}, {@code sub} (8 bytes big-endian); a deletion appends a
 * tombstone mark, {@code 't'}. The bucket sorts its keys by those bytes, so by main, then sub.
 *
 * @param main the store's revision
 * @param sub the change's position within its revision
 */
public record Revision(long main, long sub) implements Comparable<Revision> {
    /** A revision key's length ({@code revBytesLen}). */
    public static final int BYTES = 17;
    /** A tombstone's key length: the revision and its mark ({@code markedRevBytesLen}). */
    public static final int TOMBSTONE_BYTES = BYTES + 1;

    private static final int SEPARATOR_AT = 8;
    private static final byte SEPARATOR = '_';
    private static final byte TOMBSTONE = 't';

    /** The revision as a key bucket key. */
    public byte[] bytes() {
        return ByteBuffer.allocate(BYTES)
                .putLong(main)
                .put(SEPARATOR)
                .putLong(sub)
                .array();
    }

    /** The revision as a key bucket key that marks a deletion. */
    public byte[] tombstoneBytes() {
        return ByteBuffer.allocate(TOMBSTONE_BYTES)
                .putLong(main)
                .put(SEPARATOR)
                .putLong(sub)
                .put(TOMBSTONE)
                .array();
    }

    /**
     * The revision a key bucket key names, checked: {@value #BYTES} bytes with the separator, or
     * one more that is the tombstone mark; empty for anything else.
     */
    public static Optional<Revision> parse(byte[] key) {
        if ((key.length != BYTES && key.length != TOMBSTONE_BYTES) || key[SEPARATOR_AT] != SEPARATOR) {
            return Optional.empty();
        }
        if (key.length == TOMBSTONE_BYTES && key[BYTES] != TOMBSTONE) {
            return Optional.empty();
        }
        return Optional.of(fromBytes(key));
    }

    /**
     * The revision in the first {@value #BYTES} bytes of {@code key}, unchecked, as etcd reads it
     * ({@code bytesToRev}): for keys known to be revisions.
     */
    public static Revision fromBytes(byte[] key) {
        ByteBuffer b = ByteBuffer.wrap(key);
        return new Revision(b.getLong(0), b.getLong(SEPARATOR_AT + 1));
    }

    /** Whether a key bucket key (a revision key) marks a deletion. */
    public static boolean isTombstone(byte[] key) {
        return key.length == TOMBSTONE_BYTES && key[BYTES] == TOMBSTONE;
    }

    /** The key bucket's order of two revisions given by their parts: by main, then by sub. */
    public static int compare(long mainA, long subA, long mainB, long subB) {
        int c = Long.compare(mainA, mainB);
        return c != 0 ? c : Long.compare(subA, subB);
    }

    @Override
    public int compareTo(Revision other) {
        return compare(main, sub, other.main, other.sub);
    }

    /** {@code main_sub}, as messages write a revision key. */
    @Override
    public String toString() {
        return main + "_" + sub;
    }
}
