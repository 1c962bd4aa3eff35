package io.etcdworkers.restore.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Durations as Go and kubectl write them ({@code 90s}, {@code 5m}, {@code 1h30m}, {@code 500ms}), or ISO-8601. */
public final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|h|m|s)");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    public static Duration parse(String value) {
        String text = value.strip().toLowerCase(Locale.ROOT);
        if (text.equals("0")) {
            return Duration.ZERO;
        }
        if (text.startsWith("p")) {
            try {
                return Duration.parse(text.toUpperCase(Locale.ROOT));
            } catch (RuntimeException e) {
                throw new TypeConversionException("not a duration: " + value);
            }
        }
        Matcher m = PART.matcher(text);
        Duration total = Duration.ZERO;
        int at = 0;
        while (m.lookingAt()) {
            long n = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "h" -> Duration.ofHours(n);
                case "m" -> Duration.ofMinutes(n);
                case "s" -> Duration.ofSeconds(n);
                default -> Duration.ofMillis(n);
            });
            at = m.end();
            m.region(at, text.length());
        }
        if (at == 0 || at != text.length()) {
            throw new TypeConversionException("not a duration: \"" + value + "\" (use e.g. 90s, 5m, 1h30m)");
        }
        return total;
    }
}
