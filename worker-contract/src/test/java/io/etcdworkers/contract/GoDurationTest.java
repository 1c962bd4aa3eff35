package io.etcdworkers.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one duration format of the workers' flags and the launcher's Job args. */
class GoDurationTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "90s, PT1M30S",
        "5m, PT5M",
        "1h30m, PT1H30M",
        "2h5m, PT2H5M",
        "1h2m5s, PT1H2M5S",
        "250ms, PT0.25S",
        "1s500ms, PT1.5S",
        "49h, PT49H",
        "5M, PT5M",
        "' 10m ', PT10M",
        "PT10M, PT10M",
        "pt1h, PT1H"
    })
    void readsGoAndIsoDurations(String text, String iso) {
        assertThat(GoDuration.parse(text)).isEqualTo(Duration.parse(iso));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"0", "0s", "0m", "0ms", "0h0m", "PT0S"})
    void zeroIsADuration(String text) {
        // --defrag-interval documents 0 as off: the format must carry it both ways
        assertThat(GoDuration.parse(text)).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "PT1S, 1s",
        "PT5M, 5m",
        "PT2H, 2h",
        "PT1H30M, 1h30m",
        "PT1H2M5S, 1h2m5s",
        "PT1.5S, 1500ms",
        "PT49H, 49h",
        "PT0S, 0s",
        "PT0.001S, 1ms",
        "P3D, 72h"
    })
    void writesTheShortestGoForm(String iso, String expected) {
        assertThat(GoDuration.format(Duration.parse(iso))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "PT0S",
                "PT0.001S",
                "PT0.999S",
                "PT1S",
                "PT59M59S",
                "PT1H0M1S",
                "PT25H",
                "PT1000H0.5S",
                "PT2562047H"
            })
    void roundTrips(String iso) {
        Duration d = Duration.parse(iso);
        assertThat(GoDuration.parse(GoDuration.format(d))).isEqualTo(d);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", " ", "5", "m5", "5x", "1h 5m", "5m-", "1.5h", "-5m", "5us", "P", "PTXM"})
    void refusesWhatIsNotADurationAndSaysWhatIs(String text) {
        assertThatThrownBy(() -> GoDuration.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a duration: \"" + text + "\" (e.g. 90s, 5m, 1h30m, 500ms, 0, or ISO-8601 PT5M)");
    }

    @Test
    void refusesNegativeAndOverlongDurations() {
        assertThatThrownBy(() -> GoDuration.parse("PT-5M")).hasMessage("not a duration: \"PT-5M\" is negative");
        assertThatThrownBy(() -> GoDuration.parse("99999999999999999999h"))
                .hasMessage("not a duration: \"99999999999999999999h\" is too long");
        assertThatThrownBy(() -> GoDuration.parse("9223372036854775807h")).hasMessageContaining("is too long");
    }

    @Test
    void refusesToWriteWhatTheWorkersCannotRead() {
        assertThatThrownBy(() -> GoDuration.format(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not negative");
        assertThatThrownBy(() -> GoDuration.format(Duration.ofNanos(1_500_000)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("whole milliseconds");
    }
}
