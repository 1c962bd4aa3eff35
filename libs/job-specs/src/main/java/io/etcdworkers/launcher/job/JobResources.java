package io.etcdworkers.launcher.job;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;

/**
 * CPU and memory, requests and limits, the scratch and /tmp sizes, and the JVM's share of memory.
 *
 * <p>Limits are always set (etcd-druid sets requests only, and an unbounded restore can push other
 * pods on the node out of memory). The worker's memory is the JVM heap plus a child {@code etcd}
 * process, so the heap gets only {@link #heapPercent()} of the limit.
 */
public record JobResources(
        String cpuRequest,
        String cpuLimit,
        String memoryRequest,
        String memoryLimit,
        String scratchSizeLimit,
        String tmpSizeLimit,
        int heapPercent) {

    public static final String DEFAULT_CPU_REQUEST = "500m";
    public static final String DEFAULT_CPU_LIMIT = "2";
    public static final String DEFAULT_MEMORY = "2Gi";
    public static final String DEFAULT_SCRATCH = "20Gi";
    public static final String DEFAULT_TMP = "256Mi";
    public static final int DEFAULT_HEAP_PERCENT = 25;
    /** Below this the worker cannot hold a delta's revision groups and etcd's client. */
    public static final long MIN_HEAP_BYTES = 128L * 1024 * 1024;
    /** The largest heap share: the child etcd needs the rest. */
    public static final int MAX_HEAP_PERCENT = 75;

    public JobResources {
        compare(cpuRequest, cpuLimit, "cpu");
        compare(memoryRequest, memoryLimit, "memory");
        RequestChecks.quantity(scratchSizeLimit, "scratch size limit");
        RequestChecks.quantity(tmpSizeLimit, "tmp size limit");
        if (heapPercent < 10 || heapPercent > MAX_HEAP_PERCENT) {
            throw new IllegalArgumentException(
                    "heap percent must be 10..75 (the child etcd needs the rest): " + heapPercent);
        }
        BigDecimal heap = Quantity.getAmountInBytes(new Quantity(memoryLimit))
                .multiply(BigDecimal.valueOf(heapPercent))
                .divide(BigDecimal.valueOf(100));
        if (heap.compareTo(BigDecimal.valueOf(MIN_HEAP_BYTES)) < 0) {
            throw new IllegalArgumentException(
                    "memory limit " + memoryLimit + " leaves the JVM " + heapPercent + "% = less than 128Mi of heap");
        }
    }

    /** The defaults: 500m/2 CPU, 2Gi memory (request = limit), 20Gi scratch, 256Mi /tmp, 25% heap. */
    public static JobResources defaults() {
        return new JobResources(
                DEFAULT_CPU_REQUEST,
                DEFAULT_CPU_LIMIT,
                DEFAULT_MEMORY,
                DEFAULT_MEMORY,
                DEFAULT_SCRATCH,
                DEFAULT_TMP,
                DEFAULT_HEAP_PERCENT);
    }

    private static void compare(String request, String limit, String what) {
        Quantity r = RequestChecks.quantity(request, what + " request");
        Quantity l = RequestChecks.quantity(limit, what + " limit");
        if (Quantity.getAmountInBytes(r).compareTo(Quantity.getAmountInBytes(l)) > 0) {
            throw new IllegalArgumentException(what + " request " + request + " exceeds the limit " + limit);
        }
    }
}
