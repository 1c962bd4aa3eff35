package io.etcdworkers.testsupport.pod;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Kubernetes resource quantities ({@code 512Mi}, {@code 2Gi}, {@code 1500M}, {@code 500m}, {@code 2}) as numbers. */
final class Quantities {
    private static final Pattern QUANTITY = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E)?");
    private static final Map<String, BigDecimal> FACTORS = Map.ofEntries(
            Map.entry("", BigDecimal.ONE),
            Map.entry("m", new BigDecimal("0.001")),
            Map.entry("k", BigDecimal.TEN.pow(3)),
            Map.entry("M", BigDecimal.TEN.pow(6)),
            Map.entry("G", BigDecimal.TEN.pow(9)),
            Map.entry("T", BigDecimal.TEN.pow(12)),
            Map.entry("P", BigDecimal.TEN.pow(15)),
            Map.entry("E", BigDecimal.TEN.pow(18)),
            Map.entry("Ki", BigDecimal.valueOf(2).pow(10)),
            Map.entry("Mi", BigDecimal.valueOf(2).pow(20)),
            Map.entry("Gi", BigDecimal.valueOf(2).pow(30)),
            Map.entry("Ti", BigDecimal.valueOf(2).pow(40)),
            Map.entry("Pi", BigDecimal.valueOf(2).pow(50)),
            Map.entry("Ei", BigDecimal.valueOf(2).pow(60)));

    private Quantities() {}

    static BigDecimal of(String quantity) {
        Matcher m = QUANTITY.matcher(quantity.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a Kubernetes quantity: " + quantity);
        }
        return new BigDecimal(m.group(1)).multiply(FACTORS.get(m.group(2) == null ? "" : m.group(2)));
    }

    /** A memory quantity in bytes, rounded up as the kubelet rounds a limit. */
    static long bytes(String quantity) {
        return of(quantity).setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** A CPU quantity in millicores, rounded up. */
    static long milliCpu(String quantity) {
        return of(quantity)
                .multiply(BigDecimal.valueOf(1000))
                .setScale(0, RoundingMode.CEILING)
                .longValueExact();
    }
}
