package io.etcdworkers.testsupport.seeded;

import java.util.List;
import java.util.Random;

/**
 * One case of a {@link SeededTest}: values drawn from one {@link Random} seeded with {@link #seed()},
 * so the seed alone reproduces the case. The draws favour the values where code breaks: about one
 * in eight is an edge of its range (the bounds, one inside them, and -1, 0, 1 where the range holds
 * them), three in eight lie near zero (or the bound nearest it) on a logarithmic scale (as many
 * below 16 as between 2^15 and 2^16), the rest are uniform. A test still states the edge cases it
 * relies on as cases of their own.
 */
public final class SeededCase {
    private static final byte[] EDGE_BYTES = EdgeCases.bytes();

    private final long seed;
    private final Random random;

    public SeededCase(long seed) {
        this.seed = seed;
        this.random = new Random(seed);
    }

    public long seed() {
        return seed;
    }

    /** The case's source of randomness, for generators of the test's own; seeded, never shared. */
    public Random random() {
        return random;
    }

    /** A value in {@code [min, max]}, edges and small values favoured. */
    public int intBetween(int min, int max) {
        return (int) longBetween(min, max);
    }

    /** Any long, the edges (0, 1, -1, MIN_VALUE, MAX_VALUE and their neighbours) favoured. */
    public long anyLong() {
        return longBetween(Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /** A value in {@code [min, max]}, edges and small values favoured. */
    public long longBetween(long min, long max) {
        if (min > max) {
            throw new IllegalArgumentException("empty range [" + min + ", " + max + "]");
        }
        int pick = random.nextInt(8);
        if (pick == 0) {
            List<Long> edges = EdgeCases.between(min, max);
            return edges.get(random.nextInt(edges.size()));
        }
        if (pick <= 3) {
            long target = Math.max(min, Math.min(max, 0));
            // as many bits as the farther bound is away (unsigned: MIN_VALUE..MAX_VALUE spans 2^64)
            int width = 64 - Long.numberOfLeadingZeros((max - target) | (target - min));
            int bits = random.nextInt(width + 1);
            long offset = bits == 0 ? 0 : random.nextLong() >>> (64 - bits);
            boolean up = target == min || (target != max && random.nextBoolean());
            try {
                long value = up ? Math.addExact(target, offset) : Math.subtractExact(target, offset);
                if (value >= min && value <= max) {
                    return value;
                }
            } catch (ArithmeticException outsideAnyRange) {
                // drawn uniformly instead, below
            }
        }
        return uniform(min, max);
    }

    public boolean anyBoolean() {
        return random.nextBoolean();
    }

    /** Random bytes, between {@code minLength} and {@code maxLength} of them; now and then an edge byte. */
    public byte[] bytes(int minLength, int maxLength) {
        byte[] bytes = new byte[intBetween(minLength, maxLength)];
        random.nextBytes(bytes);
        for (int i = 0; i < bytes.length; i++) {
            if (random.nextInt(16) == 0) {
                bytes[i] = EDGE_BYTES[random.nextInt(EDGE_BYTES.length)];
            }
        }
        return bytes;
    }

    @SafeVarargs
    public final <T> T oneOf(T... values) {
        return values[random.nextInt(values.length)];
    }

    /** Names the case in reports: {@code seed=...}. */
    @Override
    public String toString() {
        return "seed=" + seed;
    }

    private long uniform(long min, long max) {
        if (min == Long.MIN_VALUE && max == Long.MAX_VALUE) {
            return random.nextLong();
        }
        if (max < Long.MAX_VALUE) {
            return random.nextLong(min, max + 1);
        }
        return random.nextLong(min - 1, max) + 1;
    }
}
