package io.etcdworkers.contract;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as Go and kubectl write them ({@code 90s}, {@code 5m}, {@code 1h30m}, {@code 500ms},
 * {@code 0}), or ISO-8601 ({@code PT5M}): what the workers' duration flags read and what the
 * launcher writes into a Job's args, so both sides use this one parser and formatter.
 *
 * <p>Zero is a duration like any other here ({@code 0}, {@code 0s}); a flag that documents 0 as
 * "off" ({@code --defrag-interval}) relies on that, and a flag that needs a positive value checks
 * it itself. Negative durations are refused: no flag takes one.
 */
public final class GoDuration {
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|h|m|s)");
    private static final String EXAMPLES = "e.g. 90s, 5m, 1h30m, 500ms, 0, or ISO-8601 PT5M";

    private GoDuration() {}

    /**
     * @throws IllegalArgumentException naming the value and the accepted forms
     */
    public static Duration parse(String value) {
        String text = value.strip().toLowerCase(Locale.ROOT);
        if (text.equals("0")) {
            return Duration.ZERO;
        }
        Duration d = text.startsWith("p") ? iso(value, text) : units(value, text);
        if (d.isNegative()) {
            throw new IllegalArgumentException("not a duration: \"" + value + "\" is negative");
        }
        return d;
    }

    /**
     * The shortest Go form: {@code 1h30m}, {@code 90ms} when not whole seconds, {@code 0s} for zero.
     *
     * @throws IllegalArgumentException for a negative duration or one with a part below a millisecond
     */
    public static String format(Duration d) {
        if (d.isNegative() || d.toNanosPart() % 1_000_000 != 0) {
            throw new IllegalArgumentException("a duration to pass on must be whole milliseconds, not negative: " + d);
        }
        if (d.toMillisPart() != 0) {
            return d.toMillis() + "ms";
        }
        StringBuilder sb = new StringBuilder();
        long h = d.toHours();
        int m = d.toMinutesPart();
        int s = d.toSecondsPart();
        if (h > 0) {
            sb.append(h).append('h');
        }
        if (m > 0) {
            sb.append(m).append('m');
        }
        if (s > 0 || sb.length() == 0) {
            sb.append(s).append('s');
        }
        return sb.toString();
    }

    private static Duration iso(String value, String text) {
        try {
            return Duration.parse(text.toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not a duration: \"" + value + "\" (" + EXAMPLES + ")", e);
        }
    }

    private static Duration units(String value, String text) {
        Matcher m = PART.matcher(text);
        Duration total = Duration.ZERO;
        int at = 0;
        try {
            while (m.lookingAt()) {
                long n = Long.parseLong(m.group(1));
                total = total.plus(
                        switch (m.group(2)) {
                            case "h" -> Duration.ofHours(n);
                            case "m" -> Duration.ofMinutes(n);
                            case "s" -> Duration.ofSeconds(n);
                            default -> Duration.ofMillis(n);
                        });
                at = m.end();
                m.region(at, text.length());
            }
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException("not a duration: \"" + value + "\" is too long", e);
        }
        if (at == 0 || at != text.length()) {
            throw new IllegalArgumentException("not a duration: \"" + value + "\" (" + EXAMPLES + ")");
        }
        return total;
    }
}
