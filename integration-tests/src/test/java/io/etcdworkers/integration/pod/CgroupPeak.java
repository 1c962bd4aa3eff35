package io.etcdworkers.integration.pod;

import io.etcdworkers.testsupport.ProcessRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The memory a podman container used, read from its memory cgroup (cgroup v1) every 250 ms while it
 * runs: the kernel's own high-water mark ({@code memory.max_usage_in_bytes}: every page charged to
 * the container, the page cache of the files it wrote included, which the kernel reclaims before it
 * kills) and the largest anonymous + mapped-file share seen ({@code total_rss + total_mapped_file} of
 * {@code memory.stat}: the processes' heaps and the database etcd maps, what cannot be reclaimed
 * without swap). The cgroup goes when the container ends, so the last reading stands.
 */
final class CgroupPeak implements AutoCloseable {
    private static final Path MEMORY = Path.of("/sys/fs/cgroup/memory");

    private final String containerName;
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    private volatile Path cgroup;
    private volatile long maxUsage;
    private volatile long maxRssMapped;
    private volatile long limit;

    private CgroupPeak(String containerName) {
        this.containerName = containerName;
    }

    static CgroupPeak watch(String containerName) {
        CgroupPeak peak = new CgroupPeak(containerName);
        peak.sampler.scheduleWithFixedDelay(peak::sample, 0, 250, TimeUnit.MILLISECONDS);
        return peak;
    }

    /** The kernel's high-water mark of the container's memory, page cache included (bytes). */
    long maxUsageBytes() {
        return maxUsage;
    }

    /** The largest total_rss + total_mapped_file read (bytes). */
    long maxRssMappedBytes() {
        return maxRssMapped;
    }

    /** The cgroup's limit as the kernel holds it (bytes), 0 if never read. */
    long limitBytes() {
        return limit;
    }

    @Override
    public void close() {
        sampler.shutdownNow();
        try {
            sampler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void sample() {
        try {
            if (cgroup == null) {
                cgroup = find().orElse(null);
                if (cgroup == null) {
                    return;
                }
            }
            maxUsage = Math.max(maxUsage, number(cgroup.resolve("memory.max_usage_in_bytes")));
            limit = number(cgroup.resolve("memory.limit_in_bytes"));
            long rss = 0;
            long mapped = 0;
            for (String line : Files.readAllLines(cgroup.resolve("memory.stat"))) {
                if (line.startsWith("total_rss ")) {
                    rss = Long.parseLong(line.substring(10).trim());
                } else if (line.startsWith("total_mapped_file ")) {
                    mapped = Long.parseLong(line.substring(18).trim());
                }
            }
            maxRssMapped = Math.max(maxRssMapped, rss + mapped);
        } catch (IOException | RuntimeException e) {
            // the container ended and took its cgroup with it: the readings so far stand
        }
    }

    private Optional<Path> find() throws IOException {
        ProcessRun inspect = ProcessRun.run(
                List.of("podman", "container", "inspect", "--format", "{{.Id}}", containerName),
                podmanEnv(),
                Duration.ofSeconds(30));
        String id = inspect.stdout().strip();
        if (inspect.exitCode() != 0 || id.isEmpty()) {
            return Optional.empty();
        }
        try (Stream<Path> dirs = Files.walk(MEMORY, 3)) {
            return dirs.filter(Files::isDirectory)
                    .filter(d -> d.getFileName().toString().startsWith("libpod-" + id))
                    .findFirst();
        }
    }

    private static long number(Path file) throws IOException {
        return Long.parseLong(Files.readString(file).strip());
    }

    private static Map<String, String> podmanEnv() {
        String conf = System.getenv("CONTAINERS_CONF");
        if (conf == null || conf.isBlank()) {
            conf = System.getProperty("containers.conf");
        }
        return Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"), "CONTAINERS_CONF", conf);
    }
}
