package io.etcdworkers.workercli;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * An RFC 3339 time with its offset ({@code 2026-12-01T03:04:05Z}, {@code 2026-12-01T04:04:05+01:00},
 * fractions of a second allowed). A time without an offset is refused: at 3 a.m. nobody should
 * have to guess which zone the worker assumed.
 */
public final class Rfc3339Converter implements ITypeConverter<Instant> {

    @Override
    public Instant convert(String value) {
        String v = value == null ? "" : value.strip().toUpperCase(Locale.ROOT).replace(' ', 'T');
        try {
            return OffsetDateTime.parse(v).toInstant();
        } catch (DateTimeParseException e) {
            throw new TypeConversionException("\"" + value + "\" is not an RFC 3339 time with an offset, such as "
                    + "2026-12-01T03:04:05Z or 2026-12-01T04:04:05+01:00");
        }
    }
}
