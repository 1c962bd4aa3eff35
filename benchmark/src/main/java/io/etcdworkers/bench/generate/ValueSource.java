package io.etcdworkers.bench.generate;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Deterministic values of 1 to 4 KiB, each a pure function of a 64-bit stamp, so the generator
 * keeps one {@code long} per live key instead of its value and can still rebuild every value for
 * the final digest.
 *
 * <p>A value is a short unique header followed by a slice of a fixed pool of lowercase letters and
 * digits (about 5.2 bits of entropy per byte: gzip shrinks it a little, as it does Kubernetes'
 * protobuf objects). Lengths are {@code 1024 + 3072 * u^1.6} with {@code u} uniform: mean about
 * 2.15 KiB, which with base64 puts the JSON of 300,000 events near the reference's 823 MB.
 * {@link #small} values, for keyspaces of millions of keys, are {@code min + extra * u^1.6}
 * bytes instead, and never shorter than their header.
 */
public final class ValueSource {
    static final int MIN_LENGTH = 1024;
    static final int MAX_EXTRA = 3072;
    private static final double LENGTH_SKEW = 1.6;
    private static final int POOL_BYTES = 1 << 20;
    private static final byte[] ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789".getBytes(StandardCharsets.US_ASCII);

    private final byte[] pool;
    private final int minLength;
    private final int maxExtra;

    /** @param seed seeds the pool: the same seed gives the same values */
    public ValueSource(long seed) {
        this(seed, MIN_LENGTH, MAX_EXTRA);
    }

    /** Values of {@code minLength} to {@code minLength + maxExtra} bytes (at least their header). */
    public static ValueSource small(long seed, int minLength, int maxExtra) {
        return new ValueSource(seed, minLength, maxExtra);
    }

    private ValueSource(long seed, int minLength, int maxExtra) {
        if (minLength < 1 || maxExtra < 0) {
            throw new IllegalArgumentException("values need a positive length");
        }
        this.minLength = minLength;
        this.maxExtra = maxExtra;
        this.pool = new byte[POOL_BYTES + minLength + maxExtra];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < pool.length; i++) {
            pool[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
    }

    /** The value for {@code stamp}: same stamp, same bytes. */
    public byte[] value(long stamp) {
        long mixed = mix(stamp);
        double u = (mixed >>> 11) * 0x1.0p-53;
        byte[] header = ("{\"stamp\":" + stamp + ",\"spec\":\"").getBytes(StandardCharsets.US_ASCII);
        int length = Math.max(header.length, minLength + (int) (maxExtra * Math.pow(u, LENGTH_SKEW)));
        byte[] value = new byte[length];
        System.arraycopy(header, 0, value, 0, header.length);
        int offset = (int) Long.remainderUnsigned(mix(mixed), POOL_BYTES);
        System.arraycopy(pool, offset, value, header.length, length - header.length);
        return value;
    }

    /** SplitMix64's finalizer: a cheap, well-spread bijection of the stamp. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
