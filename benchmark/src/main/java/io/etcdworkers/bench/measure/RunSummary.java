package io.etcdworkers.bench.measure;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * The figures of one run, gathered from what {@link WorkerRun} recorded and written to
 * {@code summary.json}: wall and CPU time, peak memory of the tree and of its parts, peak
 * database size, events per second, the worker's own result, the live heap after garbage
 * collections, the machine's load around the run, and whether the restored keyspace matched
 * the generator's expected digest.
 *
 * @param json the summary
 * @param failed the worker failed or its digest did not match
 */
public record RunSummary(ObjectNode json, boolean failed) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double MB = 1024.0 * 1024.0;

    static RunSummary write(
            RunSpec spec,
            int exit,
            double wall,
            String loadBefore,
            String loadAfter,
            double machineBusyCpu,
            List<ProgressState.Defrag> defrags)
            throws IOException {
        ObjectNode s = JSON.createObjectNode();
        s.put("label", spec.label());
        s.put("finishedAt", Instant.now().toString());
        s.put("command", String.join(" ", spec.command()));
        s.put("exitCode", exit);
        s.put("wallSeconds", round(wall));
        s.put("loadBefore", loadBefore);
        s.put("loadAfter", loadAfter);
        List<Sample> samples = samples(spec.outDir().resolve("samples.csv"));
        s.put("samples", samples.size());
        s.put(
                "peakTreeRssMB",
                round(samples.stream().mapToLong(Sample::treeRss).max().orElse(0) / MB));
        s.put(
                "peakJvmRssMB",
                round(samples.stream().mapToLong(Sample::jvmRss).max().orElse(0) / MB));
        s.put(
                "peakEtcdRssMB",
                round(samples.stream().mapToLong(Sample::etcdRss).max().orElse(0) / MB));
        s.put(
                "peakTreeAnonMB",
                round(samples.stream().mapToLong(Sample::treeAnon).max().orElse(0) / MB));
        s.put(
                "peakEtcdAnonMB",
                round(samples.stream().mapToLong(Sample::etcdAnon).max().orElse(0) / MB));
        s.put(
                "peakDbFileBytes",
                samples.stream().mapToLong(Sample::dbFile).max().orElse(0));
        double treeCpu = Double.NaN;
        if (Files.exists(spec.timeFile())) {
            TimeReport time = TimeReport.read(spec.timeFile());
            treeCpu = time.cpuSeconds();
            s.put("cpuSeconds", round(treeCpu));
            s.put("userSeconds", round(time.userSeconds()));
            s.put("systemSeconds", round(time.systemSeconds()));
            s.put("maxSingleProcessRssMB", round(time.maxRssBytes() / MB));
        }
        // CPU that processes outside the run used meanwhile, in cores: > 0.2 means a shared, busy machine.
        s.put("otherProcessesCores", round(Math.max(0, machineBusyCpu - treeCpu) / wall));
        heap(s, GcLog.read(spec.gcLog()), wall);
        ArrayNode d = s.putArray("defragLog");
        for (ProgressState.Defrag x : defrags) {
            d.addObject()
                    .put("atSeconds", round(x.atSeconds()))
                    .put("trigger", x.trigger())
                    .put("revision", x.revision())
                    .put("dbSizeBefore", x.dbSizeBefore())
                    .put("dbSizeAfter", x.dbSizeAfter())
                    .put("ms", x.ms());
        }
        boolean failed = exit != 0;
        JsonNode result = readResult(spec.outDir().resolve("result.json"));
        if (result != null) {
            s.set("result", result);
            long events = result.path("events").asLong();
            double replay = result.path("phaseSeconds").path("replay").asDouble(Double.NaN);
            s.put("events", events);
            s.put("replayEventsPerSecond", round(events / replay));
            s.put("wallEventsPerSecond", round(events / wall));
        }
        if (spec.expected().isPresent()) {
            failed |=
                    !checkDigest(s, result, JSON.readTree(spec.expected().get().toFile()));
        }
        JSON.writerWithDefaultPrettyPrinter()
                .writeValue(spec.outDir().resolve("summary.json").toFile(), s);
        return new RunSummary(s, failed);
    }

    private static void heap(ObjectNode s, List<GcLog.Collection> gcs, double wall) {
        s.put("gcCount", gcs.size());
        s.put(
                "maxHeapAfterGcMB",
                gcs.stream().mapToLong(GcLog.Collection::afterMb).max().orElse(-1));
        s.put(
                "maxHeapCommittedMB",
                gcs.stream().mapToLong(GcLog.Collection::committedMb).max().orElse(-1));
        // Live heap in the middle third and the last third of the run: equal means no growth with the deltas.
        s.put(
                "heapAfterGcMiddleThirdMaxMB",
                gcs.stream()
                        .filter(g -> g.seconds() > wall / 3 && g.seconds() <= 2 * wall / 3)
                        .mapToLong(GcLog.Collection::afterMb)
                        .max()
                        .orElse(-1));
        s.put(
                "heapAfterGcLastThirdMaxMB",
                gcs.stream()
                        .filter(g -> g.seconds() > 2 * wall / 3)
                        .mapToLong(GcLog.Collection::afterMb)
                        .max()
                        .orElse(-1));
    }

    private static boolean checkDigest(ObjectNode s, JsonNode result, JsonNode expected) {
        boolean ok = result != null
                && expected.path("kvSha256")
                        .asText()
                        .equals(result.path("kvSha256").asText())
                && expected.path("metaSha256")
                        .asText()
                        .equals(result.path("metaSha256").asText())
                && expected.path("revision").asLong()
                        == result.path("finalRevision").asLong()
                && expected.path("keys").asLong() == result.path("keys").asLong();
        s.put("digest", ok ? "match" : "MISMATCH");
        if (!ok) {
            System.err.println("!!!!! DIGEST MISMATCH in " + s.path("label").asText() + ": expected " + expected
                    + " but the worker reported " + result + " -- a bug in the restore engine or the generator");
        }
        return ok;
    }

    private static JsonNode readResult(Path file) {
        try {
            String text = Files.readString(file).trim();
            return text.isEmpty() ? null : JSON.readTree(text);
        } catch (IOException e) {
            return null;
        }
    }

    static List<Sample> samples(Path csv) throws IOException {
        try (var lines = Files.lines(csv)) {
            return lines.skip(1).filter(l -> !l.isBlank()).map(Sample::parse).toList();
        }
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
