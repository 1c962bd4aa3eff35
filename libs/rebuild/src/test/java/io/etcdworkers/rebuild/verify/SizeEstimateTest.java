package io.etcdworkers.rebuild.verify;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The sizing rule of docs/tuning.md, in figures. */
class SizeEstimateTest {
    private static final long MIB = 1024 * 1024;

    @Test
    void aSmallKeyspaceGetsTheHeapItsKeysNeed() {
        // 100,000 keys of 40 bytes in a 20 MB database
        SizeEstimate e = new SizeEstimate(20_000_000, 100_000, 4_000_000, 0, 0, 0);
        assertThat(e.heapBytes()).isEqualTo(64 * MIB + 150L * 100_000 + 4_000_000);
        assertThat(e.etcdBytes()).isEqualTo(20_000_000 + 330L * 100_000);
        long needed = e.etcdBytes() + e.heapBytes() + 100 * MIB;
        assertThat(e.memoryLimitBytes())
                .isGreaterThanOrEqualTo(needed + needed / 4)
                .isLessThan(needed + needed / 4 + 64 * MIB)
                .isEqualTo(e.memoryLimitBytes() / (64 * MIB) * 64 * MIB);
    }

    @Test
    void millionsOfKeysGetAHeapOfAtMost256MiBBecauseTheFoldPartitionsPastItsBudget() {
        // the 3,000,000-key benchmark bucket: 444 MB database, keys of about 40 bytes, and 3M entries
        SizeEstimate e = new SizeEstimate(443_817_984, 3_000_000, 120_000_000, 0, 0, 0);
        assertThat(e.heapBytes()).isEqualTo(256 * MIB);
        assertThat(e.memoryLimitBytes()).isEqualTo(2176 * MIB);
        // the heap share gives the JVM half as much again: 392 MiB of 2176 Mi
        assertThat(e.heapPercent()).isEqualTo(18);
    }
}
