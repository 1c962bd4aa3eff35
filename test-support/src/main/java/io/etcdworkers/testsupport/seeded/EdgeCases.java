package io.etcdworkers.testsupport.seeded;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * The edge values of a range, for the cases a randomized test states explicitly besides its random
 * ones: what breaks code most often (bounds, off by one, empty, zero, minus one, the extremes).
 */
public final class EdgeCases {
    private static final byte[] EDGE_BYTES = {0, 1, -1, Byte.MAX_VALUE, Byte.MIN_VALUE};

    private EdgeCases() {}

    /** The bounds, one inside each, and -1, 0, 1 where the range holds them; ascending. */
    public static List<Long> between(long min, long max) {
        TreeSet<Long> edges = new TreeSet<>(List.of(min, max));
        if (min < max) {
            edges.add(min + 1);
            edges.add(max - 1);
        }
        for (long v = -1; v <= 1; v++) {
            if (v >= min && v <= max) {
                edges.add(v);
            }
        }
        return List.copyOf(edges);
    }

    /** The edge bytes: 0, 1, -1, 127, -128. */
    static byte[] bytes() {
        return EDGE_BYTES.clone();
    }

    /**
     * Byte arrays at the edges of {@code [minLength, maxLength]}: empty when allowed, the shortest
     * non-empty length filled with each edge byte, and the longest filled with zeros and with ones.
     */
    public static List<byte[]> byteArrays(int minLength, int maxLength) {
        List<byte[]> arrays = new ArrayList<>();
        if (minLength == 0) {
            arrays.add(new byte[0]);
        }
        int shortest = Math.max(1, minLength);
        if (shortest <= maxLength) {
            for (byte b : EDGE_BYTES) {
                arrays.add(filled(shortest, b));
            }
        }
        if (maxLength > shortest) {
            arrays.add(filled(maxLength, (byte) 0));
            arrays.add(filled(maxLength, (byte) -1));
        }
        return arrays;
    }

    private static byte[] filled(int length, byte b) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, b);
        return bytes;
    }
}
