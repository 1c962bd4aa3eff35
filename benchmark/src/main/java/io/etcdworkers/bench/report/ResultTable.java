package io.etcdworkers.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.rebuild.engine.Engine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The Markdown tables of {@code docs/benchmarks.md}, from the runs' {@code summary.json} files
 * and the ceiling JSONs: one row per run, and the replay rate as a fraction of the raw ceiling
 * measured with the same WAL placement (a label ending in {@code -disk} or {@code -tmpfs}).
 */
public final class ResultTable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double MB = 1024.0 * 1024.0;

    private ResultTable() {}

    public static String render(Path runsDir, Path ceilingDir) throws IOException {
        List<JsonNode> runs = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(runsDir)) {
            for (Path d : dirs.sorted().toList()) {
                if (Files.exists(d.resolve("summary.json"))) {
                    runs.add(JSON.readTree(d.resolve("summary.json").toFile()));
                }
            }
        }
        JsonNode disk = ceiling(ceilingDir.resolve("ceiling-disk.json"));
        JsonNode tmpfs = ceiling(ceilingDir.resolve("ceiling-tmpfs.json"));
        StringBuilder md = new StringBuilder();
        md.append(
                "| run | events | deltas MB (gzip) | wall s | CPU s | replay (fold) s | revisions/s (replay, fold) | events/s (wall) "
                        + "| peak RSS tree MB | JVM MB | etcd MB (anon) | peak db MB | defrags (s) | max live heap MB | digest "
                        + "| load before -> after | other procs (cores) |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|\n");
        for (JsonNode r : runs) {
            JsonNode res = r.path("result");
            double replay = replaySeconds(res);
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %,d | %.0f | %.1f | %.1f | %.1f | %.0f | %.0f | %.0f | %.0f | %.0f (%.0f) | %.0f | %d (%.1f) | %d | %s | %s -> %s | %.2f |\n",
                    r.path("label").asText(),
                    res.path("events").asLong(),
                    res.path("deltaBytes").asLong() / MB,
                    r.path("wallSeconds").asDouble(),
                    r.path("cpuSeconds").asDouble(),
                    replay,
                    res.path("revisions").asLong() / replay,
                    r.path("wallEventsPerSecond").asDouble(),
                    r.path("peakTreeRssMB").asDouble(),
                    r.path("peakJvmRssMB").asDouble(),
                    r.path("peakEtcdRssMB").asDouble(),
                    r.path("peakEtcdAnonMB").asDouble(),
                    r.path("peakDbFileBytes").asLong() / MB,
                    res.path("defragmentations").path("count").asInt(),
                    res.path("defragmentations").path("seconds").asDouble(),
                    r.path("maxHeapAfterGcMB").asLong(),
                    r.path("digest").asText("-"),
                    r.path("loadBefore").asText(),
                    r.path("loadAfter").asText(),
                    r.path("otherProcessesCores").asDouble()));
        }
        md.append(
                "\n| raw ceiling | txns | txn/s | txn/s 2nd half | JVM CPU ms/txn | etcd CPU ms/txn | load before -> after | other procs (cores) |\n");
        md.append("|---|---:|---:|---:|---:|---:|---|---:|\n");
        for (JsonNode c : new JsonNode[] {disk, tmpfs}) {
            if (c != null) {
                md.append(String.format(
                        Locale.ROOT,
                        "| WAL %s | %,d | %.0f | %.0f | %.3f | %.3f | %s -> %s | %.2f |\n",
                        c.path("wal").asText(),
                        c.path("txns").asLong(),
                        c.path("txnPerSecond").asDouble(),
                        c.path("secondHalfTxnPerSecond").asDouble(),
                        c.path("jvmCpuMsPerTxn").asDouble(),
                        c.path("etcdCpuMsPerTxn").asDouble(),
                        c.path("loadBefore").asText(),
                        c.path("loadAfter").asText(),
                        c.path("otherProcessesCores").asDouble()));
            }
        }
        md.append(
                "\n| run | replay revisions/s | ceiling txn/s (same WAL) | fraction | target 90 % |\n|---|---:|---:|---:|---|\n");
        for (JsonNode r : runs) {
            String label = r.path("label").asText();
            JsonNode c = label.endsWith("-tmpfs") ? tmpfs : disk;
            JsonNode res = r.path("result");
            if (isOffline(res)) {
                continue; // nothing replayed: no transaction rate to hold against the ceiling
            }
            double rate = res.path("revisions").asLong() / replaySeconds(res);
            if (c != null) {
                double f = rate / c.path("txnPerSecond").asDouble();
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %.0f | %.0f | %.0f %% | %s |\n",
                        label,
                        rate,
                        c.path("txnPerSecond").asDouble(),
                        100 * f,
                        f >= 0.9 ? "met" : "missed"));
            }
        }
        return md.toString();
    }

    private static boolean isOffline(JsonNode result) {
        return Engine.OFFLINE.label().equals(result.path("engine").asText());
    }

    /** The replay's phase, or the offline engine's fold (which includes writing the database). */
    private static double replaySeconds(JsonNode result) {
        JsonNode phases = result.path("phaseSeconds");
        return isOffline(result)
                ? phases.path("offlineFold").asDouble()
                : phases.path("replay").asDouble();
    }

    private static JsonNode ceiling(Path file) throws IOException {
        return Files.exists(file) ? JSON.readTree(file.toFile()) : null;
    }
}
