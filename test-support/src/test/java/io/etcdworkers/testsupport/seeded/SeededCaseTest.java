package io.etcdworkers.testsupport.seeded;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class SeededCaseTest {

    @Test
    void theSeedAloneReproducesEveryDraw() {
        assertThat(draws(new SeededCase(-42)))
                .isEqualTo(draws(new SeededCase(-42)))
                .isNotEqualTo(draws(new SeededCase(43)));
    }

    @Test
    void drawsStayInTheirRangeAndReachItsEdges() {
        long[][] ranges = {
            {Long.MIN_VALUE, Long.MAX_VALUE},
            {0, 400},
            {1, 8},
            {-3, 2},
            {5, 5},
            {Long.MAX_VALUE - 2, Long.MAX_VALUE},
            {Long.MIN_VALUE, Long.MIN_VALUE + 1},
            {1, Long.MAX_VALUE}
        };
        SeededCase c = new SeededCase(7);
        for (long[] range : ranges) {
            Set<Long> seen = new HashSet<>();
            for (int i = 0; i < 5000; i++) {
                long v = c.longBetween(range[0], range[1]);
                assertThat(v).as("[%d, %d]", range[0], range[1]).isBetween(range[0], range[1]);
                seen.add(v);
            }
            assertThat(seen).as("[%d, %d]", range[0], range[1]).containsAll(EdgeCases.between(range[0], range[1]));
        }
    }

    @Test
    void edgesAreTheBoundsTheirNeighboursAndTheSmallNumbersInRange() {
        assertThat(EdgeCases.between(0, 400)).containsExactly(0L, 1L, 399L, 400L);
        assertThat(EdgeCases.between(1, 8)).containsExactly(1L, 2L, 7L, 8L);
        assertThat(EdgeCases.between(-3, 2)).containsExactly(-3L, -2L, -1L, 0L, 1L, 2L);
        assertThat(EdgeCases.between(5, 5)).containsExactly(5L);
        assertThat(EdgeCases.between(Long.MIN_VALUE, Long.MAX_VALUE))
                .containsExactly(Long.MIN_VALUE, Long.MIN_VALUE + 1, -1L, 0L, 1L, Long.MAX_VALUE - 1, Long.MAX_VALUE);
    }

    @Test
    void edgeByteArraysAreEmptyTheShortestOfEachEdgeByteAndTheLongest() {
        assertThat(EdgeCases.byteArrays(0, 300)).extracting(a -> a.length).containsExactly(0, 1, 1, 1, 1, 1, 300, 300);
        assertThat(EdgeCases.byteArrays(0, 300).subList(1, 6))
                .extracting(a -> a[0])
                .containsExactly((byte) 0, (byte) 1, (byte) -1, Byte.MAX_VALUE, Byte.MIN_VALUE);
        assertThat(EdgeCases.byteArrays(3, 5)).extracting(a -> a.length).containsExactly(3, 3, 3, 3, 3, 5, 5);
        assertThat(EdgeCases.byteArrays(1, 1)).extracting(a -> a.length).containsExactly(1, 1, 1, 1, 1);
        assertThat(EdgeCases.byteArrays(0, 0)).extracting(a -> a.length).containsExactly(0);
    }

    @Test
    void smallValuesComeOftenInAWideRange() {
        SeededCase c = new SeededCase(11);
        long small = IntStream.range(0, 10_000)
                .filter(i -> c.intBetween(0, 100_000) < 100)
                .count();
        // uniform alone would give about 10 of 10,000
        assertThat(small).isGreaterThan(1000);
    }

    @Test
    void byteArraysHaveEveryLengthOfTheirRangeEdgesIncluded() {
        SeededCase c = new SeededCase(3);
        Set<Integer> lengths = new HashSet<>();
        for (int i = 0; i < 3000; i++) {
            lengths.add(c.bytes(0, 300).length);
        }
        assertThat(lengths).contains(0, 1, 299, 300).allMatch(n -> n >= 0 && n <= 300);
        assertThat(c.bytes(0, 0)).isEmpty();
    }

    @Test
    void aPinnedSeedIsTheOnlyCase() {
        assertThat(SeededCases.seeds(300, " -1234 ")).containsExactly(-1234L);
        assertThat(SeededCases.seeds(300, null).distinct().count()).isEqualTo(300);
        assertThat(SeededCases.seeds(300, "")).hasSize(300);
    }

    private static List<Object> draws(SeededCase c) {
        List<Object> draws = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            draws.add(c.anyLong());
            draws.add(c.intBetween(0, 4000));
            draws.add(c.anyBoolean());
            draws.add(Arrays.toString(c.bytes(0, 50)));
            draws.add(c.oneOf("a", "b", "c"));
            draws.add(c.random().nextInt());
        }
        return draws;
    }
}
