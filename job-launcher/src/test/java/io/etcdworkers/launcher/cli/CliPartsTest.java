package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

/** Table tests of the CLI's small parts. */
@Timeout(30)
class CliPartsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({"90s, PT1M30S", "5m, PT5M", "1h30m, PT1H30M", "2h5m, PT2H5M", "250ms, PT0.25S", "PT10M, PT10M"})
    void readsDurations(String text, String iso) {
        assertThat(new DurationConverter().convert(text)).isEqualTo(Duration.parse(iso));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "5", "m5", "5x", "1h 5m", "5m-"})
    void refusesWhatIsNotADuration(String text) {
        assertThatThrownBy(() -> new DurationConverter().convert(text)).isInstanceOf(TypeConversionException.class);
    }

    @Test
    void environmentTwinsAreUpperSnakeWithThePrefix() {
        assertThat(EnvDefaults.envName("--store-endpoint-override")).isEqualTo("LAUNCHER_STORE_ENDPOINT_OVERRIDE");
        assertThat(EnvDefaults.envName("--namespace")).isEqualTo("LAUNCHER_NAMESPACE");
    }
}
