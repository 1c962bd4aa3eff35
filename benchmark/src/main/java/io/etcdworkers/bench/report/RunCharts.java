package io.etcdworkers.bench.report;

import io.etcdworkers.bench.measure.GcLog;
import io.etcdworkers.bench.measure.Sample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The charts of a set of runs that belong together (one bucket, several configurations), one
 * colour per run: memory of the process tree (solid), of etcd (dashed) and of the JVM (dotted),
 * database file size, events per second,
 * and the JVM's live heap after each collection. Files: {@code <prefix>-memory.png},
 * {@code -dbsize.png}, {@code -rate.png}, {@code -heap.png}.
 */
public final class RunCharts {
    private static final double MB = 1024.0 * 1024.0;

    private RunCharts() {}

    /** @param runs label to run directory (holding {@code samples.csv} and {@code gc.log}) */
    public static List<Path> write(String title, Map<String, Path> runs, Path prefix) throws IOException {
        Files.createDirectories(prefix.toAbsolutePath().getParent());
        LineChart memory = new LineChart(title + ": resident memory", "MB");
        LineChart db = new LineChart(title + ": scratch database file size", "MB");
        LineChart rate = new LineChart(title + ": replay rate (as the worker logs it)", "events/s");
        LineChart heap = new LineChart(title + ": JVM heap in use after each GC (upper bound of live data)", "MB");
        int group = 0;
        for (Map.Entry<String, Path> run : runs.entrySet()) {
            List<Sample> samples = read(run.getValue().resolve("samples.csv"));
            String l = run.getKey();
            memory.add(l + ": process tree", points(samples, s -> s.treeRss() / MB), group, LineChart.Line.SOLID);
            memory.add(l + ": etcd", points(samples, s -> s.etcdRss() / MB), group, LineChart.Line.DASHED);
            memory.add(l + ": JVM", points(samples, s -> s.jvmRss() / MB), group, LineChart.Line.DOTTED);
            db.add(l, points(samples, s -> s.dbFile() / MB), group, LineChart.Line.SOLID);
            rate.add(l, ratePoints(samples), group, LineChart.Line.SOLID);
            List<double[]> gc = new ArrayList<>();
            for (GcLog.Collection c : GcLog.read(run.getValue().resolve("gc.log"))) {
                gc.add(new double[] {c.seconds(), c.afterMb()});
            }
            heap.add(l, gc, group, LineChart.Line.SOLID);
            group++;
        }
        List<Path> written =
                List.of(file(prefix, "memory"), file(prefix, "dbsize"), file(prefix, "rate"), file(prefix, "heap"));
        memory.write(written.get(0));
        db.write(written.get(1));
        rate.write(written.get(2));
        heap.write(written.get(3));
        return written;
    }

    private static Path file(Path prefix, String what) {
        return prefix.resolveSibling(prefix.getFileName() + "-" + what + ".png");
    }

    private static List<double[]> points(List<Sample> samples, ToDoubleFunction<Sample> y) {
        List<double[]> p = new ArrayList<>(samples.size());
        samples.forEach(s -> p.add(new double[] {s.seconds(), y.applyAsDouble(s)}));
        return p;
    }

    /** One point per new progress line: events/s over the time since the previous one. */
    private static List<double[]> ratePoints(List<Sample> samples) {
        List<double[]> p = new ArrayList<>();
        Sample last = null;
        for (Sample s : samples) {
            if (s.events() == 0) {
                continue;
            }
            if (last == null) {
                last = s;
                continue;
            }
            if (s.events() != last.events()) {
                p.add(new double[] {s.seconds(), (s.events() - last.events()) / (s.seconds() - last.seconds())});
                last = s;
            }
        }
        return p;
    }

    private static List<Sample> read(Path csv) throws IOException {
        try (var lines = Files.lines(csv)) {
            return lines.skip(1).filter(l -> !l.isBlank()).map(Sample::parse).toList();
        }
    }
}
