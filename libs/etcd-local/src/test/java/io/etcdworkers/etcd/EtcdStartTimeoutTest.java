package io.etcdworkers.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** etcd rebuilds its key index before it serves: the time it may take grows with the database. */
class EtcdStartTimeoutTest {
    private static final long MIB = 1024 * 1024;

    @Test
    void aSmallOrMissingDatabaseGetsTheDefaultMinute() {
        assertThat(EmbeddedEtcdConfig.startTimeoutFor(0)).isEqualTo(Duration.ofSeconds(60));
        assertThat(EmbeddedEtcdConfig.startTimeoutFor(MIB)).isBetween(Duration.ofSeconds(60), Duration.ofSeconds(61));
    }

    @Test
    void aMillionKeysDatabaseGetsMoreThanItTookOnBusyCores() {
        // 147 MB took 52 s to start on 2 busy cores, and more than 60 s when it was folded
        assertThat(EmbeddedEtcdConfig.startTimeoutFor(147 * MIB)).isGreaterThan(Duration.ofSeconds(140));
        // etcd's 8 GiB quota: over an hour and a half, still a bound for a hung etcd
        assertThat(EmbeddedEtcdConfig.startTimeoutFor(8192 * MIB))
                .isBetween(Duration.ofMinutes(80), Duration.ofMinutes(90));
    }

    @Test
    void aLongStartIsReportedEveryTenSeconds() {
        assertThat(EtcdStartWait.stillStartingReports(-1)).isZero();
        assertThat(EtcdStartWait.stillStartingReports(Duration.ofMillis(9_999).toNanos()))
                .isZero();
        assertThat(EtcdStartWait.stillStartingReports(Duration.ofSeconds(10).toNanos()))
                .isEqualTo(1);
        assertThat(EtcdStartWait.stillStartingReports(Duration.ofSeconds(35).toNanos()))
                .isEqualTo(3);
    }
}
