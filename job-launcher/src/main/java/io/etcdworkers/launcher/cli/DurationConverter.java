package io.etcdworkers.launcher.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads durations as the workers write them ({@code 90s}, {@code 5m}, {@code 1h30m}, {@code 0}) or
 * ISO-8601 ({@code PT5M}). Zero is accepted here; each request record decides whether it may be zero.
 */
final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|h|m|s)");

    @Override
    public Duration convert(String value) {
        String v = value.strip();
        if (v.equals("0")) {
            // as the workers (and Go) read it; for --defrag-interval it means "off"
            return Duration.ZERO;
        }
        if (v.startsWith("P") || v.startsWith("p")) {
            try {
                return Duration.parse(v);
            } catch (java.time.format.DateTimeParseException e) {
                throw new TypeConversionException("not a duration: " + value);
            }
        }
        Matcher m = PART.matcher(v);
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find() && m.start() == end) {
            long n = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "h" -> Duration.ofHours(n);
                case "m" -> Duration.ofMinutes(n);
                case "s" -> Duration.ofSeconds(n);
                default -> Duration.ofMillis(n);
            });
            end = m.end();
        }
        if (end == 0 || end != v.length()) {
            throw new TypeConversionException("not a duration (e.g. 90s, 5m, 1h30m): " + value);
        }
        return total;
    }
}
