package io.etcdworkers.workercli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A size in bytes: a plain number, or with a binary suffix as Kubernetes writes them ({@code 8Gi}, {@code 512Mi}). */
public final class ByteSizeConverter implements ITypeConverter<Long> {
    private static final Pattern SIZE = Pattern.compile("(\\d+)(ki|mi|gi|ti)?b?");

    @Override
    public Long convert(String value) {
        return parse(value);
    }

    public static long parse(String value) {
        Matcher m = SIZE.matcher(value.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new TypeConversionException("not a size in bytes: \"" + value + "\" (use e.g. 8589934592 or 8Gi)");
        }
        long n = Long.parseLong(m.group(1));
        int shift = m.group(2) == null
                ? 0
                : switch (m.group(2)) {
                    case "ki" -> 10;
                    case "mi" -> 20;
                    case "gi" -> 30;
                    default -> 40;
                };
        if (shift > 0 && n > (Long.MAX_VALUE >> shift)) {
            throw new TypeConversionException("size too large: " + value);
        }
        return n << shift;
    }
}
