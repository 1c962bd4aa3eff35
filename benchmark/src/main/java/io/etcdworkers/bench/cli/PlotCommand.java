package io.etcdworkers.bench.cli;

import io.etcdworkers.bench.report.RunCharts;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code plot}: the PNG charts of runs that belong together. */
@Command(name = "plot", mixinStandardHelpOptions = true, description = "Draws <prefix>-{memory,dbsize,rate,heap}.png.")
public final class PlotCommand implements Callable<Integer> {
    @Option(names = "--title", required = true)
    String title;

    @Option(names = "--prefix", required = true, description = "Output path prefix, e.g. docs/img/restore-300k.")
    Path prefix;

    @Option(
            names = "--run",
            required = true,
            description = "LABEL=RUN_DIR, repeatable; runs missing on disk are skipped.")
    List<String> runs;

    @Override
    public Integer call() throws Exception {
        Map<String, Path> byLabel = new LinkedHashMap<>();
        for (String r : runs) {
            String[] kv = r.split("=", 2);
            Path dir = Path.of(kv[1]);
            if (dir.resolve("samples.csv").toFile().exists()) {
                byLabel.put(kv[0], dir);
            }
        }
        if (byLabel.isEmpty()) {
            System.err.println("no runs to plot for " + prefix);
            return 0;
        }
        RunCharts.write(title, byLabel, prefix).forEach(System.out::println);
        return 0;
    }
}
