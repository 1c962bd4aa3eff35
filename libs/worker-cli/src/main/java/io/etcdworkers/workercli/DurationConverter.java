package io.etcdworkers.workercli;

import io.etcdworkers.contract.GoDuration;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Durations as Go and kubectl write them ({@code 90s}, {@code 5m}, {@code 1h30m}, {@code 500ms}, {@code 0}), or
 * ISO-8601: the contract's {@link GoDuration}, so the worker reads exactly what the launcher writes.
 */
public final class DurationConverter implements ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        try {
            return GoDuration.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
