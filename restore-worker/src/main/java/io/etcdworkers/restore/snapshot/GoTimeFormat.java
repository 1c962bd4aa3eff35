package io.etcdworkers.restore.snapshot;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Formats times exactly as Go's {@code time.Time} marshals to JSON (RFC 3339 with nanoseconds,
 * trailing zeros of the fraction trimmed, no fraction when it is zero, {@code Z} for UTC).
 */
final class GoTimeFormat {
    private GoTimeFormat() {}

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
