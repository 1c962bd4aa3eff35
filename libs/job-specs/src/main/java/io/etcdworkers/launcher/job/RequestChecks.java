package io.etcdworkers.launcher.job;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * The checks the request records (and the launcher's watch limits) run in their constructors; each
 * throws IllegalArgumentException.
 */
public final class RequestChecks {
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private RequestChecks() {}

    static String required(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(what + " is required");
        }
        return value.strip();
    }

    static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    static String dnsLabel(String value, String what) {
        if (value == null || value.length() > 63 || !DNS_LABEL.matcher(value).matches()) {
            throw new IllegalArgumentException(
                    what + " must be a DNS label (lower case, digits, '-', at most 63): " + value);
        }
        return value;
    }

    static String dnsSubdomain(String value, String what) {
        if (value == null
                || value.length() > 253
                || !DNS_SUBDOMAIN.matcher(value).matches()) {
            throw new IllegalArgumentException(what + " must be a DNS subdomain name: " + value);
        }
        return value;
    }

    static Quantity quantity(String value, String what) {
        String v = required(value, what);
        Quantity q;
        BigDecimal amount;
        try {
            q = new Quantity(v);
            amount = Quantity.getAmountInBytes(q);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IllegalArgumentException(what + " is not a Kubernetes quantity: " + v, e);
        }
        if (amount.signum() <= 0) {
            throw new IllegalArgumentException(what + " must be positive: " + v);
        }
        return q;
    }

    public static Duration positive(Duration value, String what) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(what + " must be a positive duration: " + value);
        }
        return value;
    }

    static Long positive(Long value, String what) {
        if (value != null && value <= 0) {
            throw new IllegalArgumentException(what + " must be positive: " + value);
        }
        return value;
    }

    /** For the workers' counters where 0 means "off". */
    static Long notNegative(Long value, String what) {
        if (value != null && value < 0) {
            throw new IllegalArgumentException(what + " must not be negative (0: off): " + value);
        }
        return value;
    }

    /** Counts the workers hold in an int: {@code --defrag-every-deltas}, {@code --min-delta-snapshots}. */
    static Long fitsAnInt(Long value, String what) {
        if (value != null && value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(what + " must be at most " + Integer.MAX_VALUE + ": " + value);
        }
        return value;
    }

    static String absolutePath(String value, String what) {
        String v = required(value, what);
        if (!v.startsWith("/") || v.contains("..")) {
            throw new IllegalArgumentException(what + " must be an absolute path without '..': " + v);
        }
        return v;
    }
}
