package io.etcdworkers.bench.cli;

import io.etcdworkers.bench.report.ResultTable;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code table}: prints the Markdown tables of every run under a directory. */
@Command(name = "table", mixinStandardHelpOptions = true, description = "Prints the results as Markdown tables.")
public final class TableCommand implements Callable<Integer> {
    @Option(names = "--runs", required = true, description = "Directory of run directories (each with summary.json).")
    Path runs;

    @Option(
            names = "--ceilings",
            required = true,
            description = "Directory with ceiling-disk.json and ceiling-tmpfs.json.")
    Path ceilings;

    @Override
    public Integer call() throws Exception {
        System.out.print(ResultTable.render(runs, ceilings));
        return 0;
    }
}
