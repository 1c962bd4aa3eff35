package io.etcdworkers.rebuild.verify;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A sample of the distinct keys an engine saw, in memory that does not grow with the keyspace,
 * to bound the ranges of the verification's read ({@link KeyBounds}) where the keys are not
 * known in order (the replay: the base's keys and every key a delta puts).
 *
 * <p>A key is kept when the low {@code level} bits of its hash are zero; when the sample
 * outgrows its capacity the level goes up by one and about half of it is dropped. So every
 * distinct key has the same chance of being kept, however often it was seen, and the sample
 * size times {@code 2^level} estimates how many distinct keys there were.
 */
public final class KeySample {
    private final int capacity;
    private final Set<Key> keys = new HashSet<>();
    private int level;

    /** @param capacity the most keys held (memory: about the key plus 50 bytes each) */
    public KeySample(int capacity) {
        if (capacity < 2) {
            throw new IllegalArgumentException("a sample holds at least two keys");
        }
        this.capacity = capacity;
    }

    public void offer(byte[] key) {
        if (key.length == 0) {
            return;
        }
        long hash = hash(key);
        if (!kept(hash)) {
            return;
        }
        keys.add(new Key(key.clone(), hash));
        while (keys.size() > capacity) {
            level++;
            keys.removeIf(k -> !kept(k.hash));
        }
    }

    /** About how many distinct keys were offered. */
    public long estimatedKeys() {
        return (long) keys.size() << level;
    }

    /** Bounds about {@code keysPerPage} keys apart (fewer when keys were deleted since). */
    public KeyBounds bounds(int keysPerPage) {
        List<byte[]> sorted = new ArrayList<>(keys.size());
        for (Key k : keys) {
            sorted.add(k.bytes);
        }
        sorted.sort(Arrays::compareUnsigned);
        long perSampled = Math.max(1, 1L << level);
        int step = (int) Math.max(1, keysPerPage / perSampled);
        List<byte[]> bounds = new ArrayList<>(sorted.size() / step + 1);
        for (int i = step; i < sorted.size(); i += step) {
            bounds.add(sorted.get(i));
        }
        return KeyBounds.of(bounds);
    }

    private boolean kept(long hash) {
        return (hash & ((1L << level) - 1)) == 0;
    }

    /** FNV-1a over the bytes, then SplitMix64's finalizer: the low bits must be as good as the high ones. */
    static long hash(byte[] key) {
        long z = 0xCBF29CE484222325L;
        for (byte b : key) {
            z = (z ^ (b & 0xff)) * 0x100000001B3L;
        }
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private record Key(byte[] bytes, long hash) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(hash);
        }
    }
}
