package io.etcdworkers.launcher.cli;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;

/** What to tell someone whose worker ran out of memory. */
final class MemoryAdvice {
    private MemoryAdvice() {}

    /** Twice the limit that was too small (the heap and the child etcd both grow with the keyspace). */
    static String forLimit(String limit) {
        String rule = "docs/tuning.md has the sizing rule";
        if (limit == null) {
            return "Rerun with a larger --memory-limit (" + rule + ").";
        }
        BigDecimal bytes = Quantity.getAmountInBytes(new Quantity(limit));
        long mib = bytes.multiply(BigDecimal.valueOf(2))
                .divide(BigDecimal.valueOf(1 << 20), RoundingMode.UP)
                .longValue();
        return "Rerun with --memory-limit=" + mib + "Mi (twice " + limit + "; " + rule + ").";
    }
}
