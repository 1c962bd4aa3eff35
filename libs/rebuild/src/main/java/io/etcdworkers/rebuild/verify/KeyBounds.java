package io.etcdworkers.rebuild.verify;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Keys that cut the keyspace into ranges for reading it back from etcd. etcd counts every key
 * from a range's start to its end on each request, whatever the limit (its index visits them
 * all to fill the response's {@code count}), so a walk in pages of an unbounded range costs the
 * square of the keyspace; a walk over ranges bounded by these keys costs each key once.
 *
 * <p>The bounds never decide what is read, only how: the ranges
 * {@code [\0, b1) [b1, b2) ... [bn, end)} cover every key there is, with any bounds or none. Bounds
 * that turn out far apart only make one range dearer (it is paged within itself).
 */
public final class KeyBounds {
    private static final KeyBounds NONE = new KeyBounds(List.of());

    private final List<ByteString> keys;

    private KeyBounds(List<ByteString> keys) {
        this.keys = keys;
    }

    /** No bounds: one range, the whole keyspace (what a small keyspace needs). */
    public static KeyBounds none() {
        return NONE;
    }

    /**
     * Bounds from keys in strictly ascending unsigned byte order. The key {@code \0}, the first
     * there is, bounds nothing and is left out (as a range end it would mean "to the end").
     */
    public static KeyBounds of(List<byte[]> ascending) {
        List<ByteString> keys = new ArrayList<>(ascending.size());
        byte[] last = null;
        for (byte[] key : ascending) {
            if (key.length == 1 && key[0] == 0) {
                last = key;
                continue;
            }
            if (key.length == 0 || (last != null && Arrays.compareUnsigned(last, key) >= 0)) {
                throw new IllegalArgumentException("bounds must be non-empty keys in strictly ascending order");
            }
            keys.add(ByteString.copyFrom(key));
            last = key;
        }
        return new KeyBounds(List.copyOf(keys));
    }

    public int size() {
        return keys.size();
    }

    /** The ranges to read, in key order: {@code size() + 1} of them. */
    public List<KeyRange> ranges() {
        List<KeyRange> ranges = new ArrayList<>(keys.size() + 1);
        ByteString from = KeyRange.FIRST_KEY;
        for (ByteString bound : keys) {
            ranges.add(new KeyRange(from, bound));
            from = bound;
        }
        ranges.add(new KeyRange(from, KeyRange.TO_END));
        return ranges;
    }

    /**
     * Takes keys in ascending order and keeps one at least every {@code keys} keys or
     * {@code bytes} bytes of values, so each range is one modest response.
     */
    public static final class EveryPage {
        private final int keysPerPage;
        private final long bytesPerPage;
        private final List<byte[]> bounds = new ArrayList<>();
        private int keys;
        private long bytes;

        public EveryPage(int keysPerPage, long bytesPerPage) {
            if (keysPerPage < 1 || bytesPerPage < 1) {
                throw new IllegalArgumentException("a page holds at least one key and one byte");
            }
            this.keysPerPage = keysPerPage;
            this.bytesPerPage = bytesPerPage;
        }

        /** The next key, after every key offered before it. */
        public void offer(byte[] key, int valueBytes) {
            if (keys >= keysPerPage || (keys > 0 && bytes + valueBytes > bytesPerPage)) {
                bounds.add(key);
                keys = 0;
                bytes = 0;
            }
            keys++;
            bytes += valueBytes;
        }

        /** Bounds taken so far: the index of the range the key offered last falls in. */
        public int taken() {
            return bounds.size();
        }

        public KeyBounds build() {
            return KeyBounds.of(bounds);
        }
    }

    /**
     * A range of keys as etcd takes it.
     *
     * @param from the first key
     * @param end the key after the last one, or {@link #TO_END} for "every key from {@code from} on"
     */
    public record KeyRange(ByteString from, ByteString end) {
        /** The smallest key etcd accepts. */
        public static final ByteString FIRST_KEY = ByteString.copyFrom(new byte[] {0});
        /** etcd's range end for "to the end of the keyspace". */
        public static final ByteString TO_END = ByteString.copyFrom(new byte[] {0});
    }
}
