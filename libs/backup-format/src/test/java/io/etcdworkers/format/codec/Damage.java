package io.etcdworkers.format.codec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A compressed file damaged the ways a store or a disk damages one: cut short, a bit flipped,
 * bytes after its end (some starting like a gzip header), a run of zeros.
 *
 * @param bytes the damaged file
 * @param what how it was damaged, for the assertion's message
 */
record Damage(byte[] bytes, String what) {
    /** {@code trials} damaged copies of {@code valid}, the four kinds in turn, the same for the same seed. */
    static List<Damage> of(byte[] valid, long seed, int trials) {
        Random random = new Random(seed);
        List<Damage> all = new ArrayList<>();
        for (int trial = 0; trial < trials; trial++) {
            switch (trial % 4) {
                case 0 -> {
                    int cut = random.nextInt(valid.length);
                    all.add(new Damage(Arrays.copyOf(valid, cut), "cut at " + cut));
                }
                case 1 -> {
                    byte[] damaged = valid.clone();
                    int at = random.nextInt(valid.length);
                    damaged[at] ^= (byte) (1 << random.nextInt(8));
                    all.add(new Damage(damaged, "bit flipped at " + at));
                }
                case 2 -> {
                    byte[] tail = new byte[1 + random.nextInt(40)];
                    random.nextBytes(tail);
                    tail[0] = (byte) (trial % 8 == 2 ? 0x1f : tail[0]);
                    all.add(new Damage(CompressionTest.concat(valid, tail), tail.length + " bytes after the end"));
                }
                default -> {
                    byte[] damaged = valid.clone();
                    int at = random.nextInt(valid.length - 64);
                    Arrays.fill(damaged, at, at + 1 + random.nextInt(63), (byte) 0);
                    all.add(new Damage(damaged, "zeros from " + at));
                }
            }
        }
        return all;
    }
}
