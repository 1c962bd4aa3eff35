package io.etcdworkers.format;

import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Times as Go's {@code time.Time} marshals them to JSON (RFC 3339 with nanoseconds, trailing
 * zeros of the fraction trimmed, no fraction when it is zero, {@code Z} for UTC): formatted
 * exactly so, and parsed.
 */
final class GoTimeFormat {
    /** {@code 2024-01-01T00:00:01}: what every form this parses starts with. */
    private static final int SECONDS_END = 19;

    private GoTimeFormat() {}

    /**
     * {@link OffsetDateTime#parse(CharSequence)}, with the same result for every input, faster for
     * the one form Go writes ({@code YYYY-MM-DDTHH:MM:SS}, an optional fraction of 1 to 9 digits,
     * {@code Z} or {@code ±HH:MM}): a delta holds one per event, and the JDK's formatter costs
     * about 0.6 µs each. Anything else, out-of-range fields included, goes to the JDK's parser,
     * which then gives its own answer or its own {@link java.time.format.DateTimeParseException}.
     */
    static OffsetDateTime parse(String text) {
        OffsetDateTime fast = parseGoForm(text);
        return fast != null ? fast : OffsetDateTime.parse(text);
    }

    /** @return the time, or null when {@code text} is not exactly Go's form with valid fields */
    static OffsetDateTime parseGoForm(String text) {
        int n = text.length();
        if (n < SECONDS_END + 1
                || text.charAt(4) != '-'
                || text.charAt(7) != '-'
                || text.charAt(10) != 'T'
                || text.charAt(13) != ':'
                || text.charAt(16) != ':') {
            return null;
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 2);
        int day = digits(text, 8, 2);
        int hour = digits(text, 11, 2);
        int minute = digits(text, 14, 2);
        int second = digits(text, 17, 2);
        if ((year | month | day | hour | minute | second) < 0) {
            return null;
        }
        int at = SECONDS_END;
        int nanos = 0;
        if (text.charAt(at) == '.') {
            int start = ++at;
            while (at < n && at - start < 9 && isDigit(text.charAt(at))) {
                nanos = nanos * 10 + (text.charAt(at) - '0');
                at++;
            }
            int length = at - start;
            if (length == 0 || (at < n && isDigit(text.charAt(at)))) {
                return null;
            }
            for (int i = length; i < 9; i++) {
                nanos *= 10;
            }
        }
        ZoneOffset offset;
        if (at == n - 1 && text.charAt(at) == 'Z') {
            offset = ZoneOffset.UTC;
        } else if (at == n - 6 && (text.charAt(at) == '+' || text.charAt(at) == '-') && text.charAt(at + 3) == ':') {
            int hours = digits(text, at + 1, 2);
            int minutes = digits(text, at + 4, 2);
            if ((hours | minutes) < 0 || hours > 18 || minutes > 59) {
                return null;
            }
            int sign = text.charAt(at) == '-' ? -1 : 1;
            int total = sign * (hours * 3600 + minutes * 60);
            if (Math.abs(total) > 18 * 3600) {
                return null;
            }
            offset = ZoneOffset.ofTotalSeconds(total);
        } else {
            return null;
        }
        try {
            return OffsetDateTime.of(year, month, day, hour, minute, second, nanos, offset);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** The value of {@code count} decimal digits at {@code from}, or -1 when one is not a digit. */
    private static int digits(String text, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = text.charAt(i);
            if (!isDigit(c)) {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    static String format(OffsetDateTime time) {
        StringBuilder sb = new StringBuilder(35);
        pad(sb, time.getYear(), 4).append('-');
        pad(sb, time.getMonthValue(), 2).append('-');
        pad(sb, time.getDayOfMonth(), 2).append('T');
        pad(sb, time.getHour(), 2).append(':');
        pad(sb, time.getMinute(), 2).append(':');
        pad(sb, time.getSecond(), 2);
        int nanos = time.getNano();
        if (nanos != 0) {
            String fraction = String.format("%09d", nanos);
            int end = fraction.length();
            while (fraction.charAt(end - 1) == '0') {
                end--;
            }
            sb.append('.').append(fraction, 0, end);
        }
        ZoneOffset offset = time.getOffset();
        if (offset.getTotalSeconds() == 0) {
            sb.append('Z');
        } else {
            int total = offset.getTotalSeconds();
            sb.append(total < 0 ? '-' : '+');
            total = Math.abs(total);
            pad(sb, total / 3600, 2).append(':');
            pad(sb, total / 60 % 60, 2);
        }
        return sb.toString();
    }

    private static StringBuilder pad(StringBuilder sb, int value, int width) {
        String digits = Integer.toString(value);
        for (int i = digits.length(); i < width; i++) {
            sb.append('0');
        }
        return sb.append(digits);
    }
}
