package io.etcdworkers.launcher.cli;

import io.etcdworkers.contract.GoDuration;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads durations as the workers do ({@code 90s}, {@code 5m}, {@code 1h30m}, {@code 0}, ISO-8601 {@code PT5M}):
 * the contract's {@link GoDuration}. Zero is accepted here; each request record decides whether it may be zero
 * ({@code --defrag-interval 0} is the workers' "off").
 */
final class DurationConverter implements ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        try {
            return GoDuration.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
