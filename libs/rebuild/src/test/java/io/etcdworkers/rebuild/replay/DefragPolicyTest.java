package io.etcdworkers.rebuild.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.rebuild.replay.DefragPolicy.Observation;
import io.etcdworkers.rebuild.replay.DefragPolicy.Trigger;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DefragPolicyTest {
    private static final long MB = 1024 * 1024;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "none", textBlock = """
            nothing reached                 | 999  | 4 | 100 | 90  | 59  | none
            events reached                  | 1000 | 0 | 1   | 1   | 0   | EVENTS
            deltas reached                  | 0    | 5 | 1   | 1   | 0   | DELTAS
            db size reached                 | 0    | 0 | 512 | 500 | 0   | DB_SIZE
            fragmented enough               | 0    | 0 | 200 | 90  | 0   | FRAGMENTATION
            fragmented but db too small     | 0    | 0 | 10  | 1   | 0   | none
            interval reached                | 0    | 0 | 1   | 1   | 60  | INTERVAL
            several: first in order wins    | 5000 | 9 | 900 | 10  | 600 | EVENTS
            """)
    void firesTheFirstReachedTrigger(
            String name, long events, int deltas, long dbMb, long inUseMb, long seconds, Trigger expected) {
        DefragPolicy policy =
                new DefragPolicy(new DefragPolicyConfig(1000, 5, 512 * MB, 0.5, Duration.ofSeconds(60), 64 * MB));

        Optional<Trigger> decision =
                policy.decide(new Observation(events, deltas, dbMb * MB, inUseMb * MB, Duration.ofSeconds(seconds)));

        assertThat(decision).isEqualTo(Optional.ofNullable(expected));
    }

    @Test
    void offNeverFires() {
        DefragPolicy policy = new DefragPolicy(DefragPolicyConfig.off());

        assertThat(policy.decide(
                        new Observation(Long.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE, 0, Duration.ofDays(365))))
                .isEmpty();
        assertThat(policy.eventsTriggerReached(Long.MAX_VALUE)).isFalse();
    }

    @Test
    void defaultsHaveATriggerThatBoundsTheDatabase() {
        DefragPolicyConfig defaults = DefragPolicyConfig.defaults();

        assertThat(new DefragPolicy(defaults).decide(new Observation(0, 0, defaults.dbSizeBytes(), 0, Duration.ZERO)))
                .isPresent();
    }

    @Test
    void fragmentationIsOneMinusInUseOverSize() {
        assertThat(new Observation(0, 0, 200, 50, Duration.ZERO).fragmentation())
                .isEqualTo(0.75);
        assertThat(new Observation(0, 0, 0, 0, Duration.ZERO).fragmentation()).isZero();
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> new DefragPolicyConfig(-1, 0, 0, 0, Duration.ZERO, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DefragPolicyConfig(0, 0, 0, 1.0, Duration.ZERO, 0))
                .hasMessageContaining("--defrag-fragmentation-ratio");
        assertThatThrownBy(() -> new DefragPolicyConfig(0, 0, 0, 0, Duration.ofSeconds(-1), 0))
                .hasMessageContaining("--defrag-interval");
    }
}
