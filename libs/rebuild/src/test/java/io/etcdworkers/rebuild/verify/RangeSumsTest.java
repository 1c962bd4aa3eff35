package io.etcdworkers.rebuild.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class RangeSumsTest {
    @Test
    void eachKeyLandsInTheRangeItsBoundsCutAndTheTotalIsEveryKey() {
        KeyBounds.EveryPage page = new KeyBounds.EveryPage(3, Long.MAX_VALUE);
        RangeSums.Builder sums = new RangeSums.Builder();
        KeySum all = new KeySum();
        KeyHasher hasher = new KeyHasher();
        for (int i = 0; i < 10; i++) {
            byte[] key = String.format("k%02d", i).getBytes(StandardCharsets.UTF_8);
            page.offer(key, 1);
            sums.add(page.taken(), key, new byte[] {(byte) i}, 1, 1, 1, 0);
            hasher.addTo(all, key, new byte[] {(byte) i}, 1, 1, 1, 0);
        }
        KeyBounds bounds = page.build();
        RangeSums built = sums.build(bounds);

        // bounds k03 k06 k09: ranges [\0,k03) [k03,k06) [k06,k09) [k09,end)
        assertThat(bounds.size()).isEqualTo(3);
        assertThat(built.size()).isEqualTo(4);
        assertThat(built.range(0).keys()).isEqualTo(3);
        assertThat(built.range(3).keys()).isEqualTo(1);
        assertThat(built.total()).isEqualTo(all);
    }

    @Test
    void noKeysIsOneEmptyRangeAndRangesOutOfOrderAreRefused() {
        RangeSums empty = new RangeSums.Builder().build(KeyBounds.none());
        assertThat(empty.size()).isEqualTo(1);
        assertThat(empty.total().keys()).isZero();

        RangeSums.Builder sums = new RangeSums.Builder();
        sums.add(2, new byte[] {1}, new byte[0], 1, 1, 1, 0);
        assertThatThrownBy(() -> sums.add(0, new byte[] {2}, new byte[0], 1, 1, 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theSampleHasTheFirstAndLastRangeAndAtMostSixteen() {
        for (int ranges : new int[] {1, 2, 5, 16, 17, 6006}) {
            TreeSet<Integer> picked = WrittenKeyspaceCheck.pick(ranges, new Random(ranges));
            assertThat(picked).hasSize(Math.min(ranges, WrittenKeyspaceCheck.SAMPLED_RANGES));
            assertThat(picked.first()).isZero();
            assertThat(picked.last()).isEqualTo(ranges - 1);
        }
    }
}
