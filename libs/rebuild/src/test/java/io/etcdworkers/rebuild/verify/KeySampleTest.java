package io.etcdworkers.rebuild.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.rebuild.verify.KeyBounds.KeyRange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeySampleTest {
    private static byte[] key(int i) {
        return String.format("/registry/configmaps/ns-%04d/cm-%07d", i % 997, i).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aSmallKeyspaceIsSampledWholeAndCutIntoPagesOfItsKeys() {
        KeySample sample = new KeySample(1024);
        List<byte[]> all = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            sample.offer(key(i));
            all.add(key(i));
        }

        assertThat(sample.estimatedKeys()).isEqualTo(1000);
        assertThat(pageSizes(sample.bounds(100), all))
                .allSatisfy(n -> assertThat(n).isBetween(1, 100));
        assertThat(sample.bounds(100).size()).isEqualTo(9);
    }

    @Test
    void aLargeKeyspaceStaysInItsCapacityAndItsPagesStayNearTheSizeAsked() {
        int n = 300_000;
        KeySample sample = new KeySample(1024);
        List<byte[]> all = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            sample.offer(key(i));
            all.add(key(i));
        }
        all.sort(Arrays::compareUnsigned);

        assertThat(sample.estimatedKeys()).isBetween((long) (n * 0.9), (long) (n * 1.1));
        KeyBounds bounds = sample.bounds(500);
        assertThat(bounds.size()).isLessThanOrEqualTo(1024);
        List<Integer> pages = pageSizes(bounds, all);
        assertThat(pages.stream().mapToInt(Integer::intValue).sum()).isEqualTo(n);
        // one in 2^level keys is sampled: a range holds about that many, rarely ten times as many
        double mean = (double) n / pages.size();
        assertThat(mean).isBetween(200.0, 600.0);
        assertThat(pages.stream().mapToInt(Integer::intValue).max().orElseThrow())
                .isLessThan((int) (mean * 12));
    }

    @Test
    void aKeySeenManyTimesCountsOnce() {
        KeySample sample = new KeySample(64);
        Random random = new Random(7);
        for (int i = 0; i < 100_000; i++) {
            sample.offer(key(random.nextInt(50)));
        }

        assertThat(sample.estimatedKeys()).isEqualTo(50);
    }

    @Test
    void theHashSpreadsKeysThatDifferOnlyAtTheEnd() {
        long zeroLowBits = 0;
        for (int i = 0; i < 65_536; i++) {
            if ((KeySample.hash(key(i)) & 0xff) == 0) {
                zeroLowBits++;
            }
        }
        // 65536 / 256 = 256 expected
        assertThat(zeroLowBits).isBetween(200L, 320L);
    }

    /** How many of {@code sorted} keys each range of {@code bounds} holds. */
    private static List<Integer> pageSizes(KeyBounds bounds, List<byte[]> keys) {
        List<byte[]> sorted = new ArrayList<>(keys);
        sorted.sort(Arrays::compareUnsigned);
        List<Integer> sizes = new ArrayList<>();
        int i = 0;
        for (KeyRange r : bounds.ranges()) {
            byte[] end = r.end().equals(KeyRange.TO_END) ? null : r.end().toByteArray();
            int n = 0;
            while (i < sorted.size() && (end == null || Arrays.compareUnsigned(sorted.get(i), end) < 0)) {
                i++;
                n++;
            }
            sizes.add(n);
        }
        assertThat(i).isEqualTo(sorted.size());
        return sizes;
    }
}
