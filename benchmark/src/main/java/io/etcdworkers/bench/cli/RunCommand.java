package io.etcdworkers.bench.cli;

import io.etcdworkers.bench.measure.RunSpec;
import io.etcdworkers.bench.measure.RunSummary;
import io.etcdworkers.bench.measure.WorkerRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code run}: runs any worker command (restore now, compact once it lands) and samples it. Exits
 * 3 when the worker failed or its digest did not match the generator's.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = "Runs the command after -- as a child process, sampling memory, CPU, db size and progress.")
public final class RunCommand implements Callable<Integer> {
    @Option(names = "--label", required = true, description = "Run name for tables and charts.")
    String label;

    @Option(
            names = "--out",
            required = true,
            description = "Directory for samples.csv, worker.log, result.json, summary.json.")
    Path out;

    @Option(names = "--db-file", required = true, description = "The scratch database file to watch.")
    Path dbFile;

    @Option(names = "--expected", description = "The generator's expected.json: check the result's digests against it.")
    Path expected;

    @Option(
            names = "--interval-ms",
            defaultValue = "250",
            description = "Sampling interval. Default: ${DEFAULT-VALUE}.")
    long intervalMs;

    @Parameters(paramLabel = "COMMAND", description = "The worker command line.")
    List<String> command;

    @Override
    public Integer call() throws Exception {
        RunSummary summary = new WorkerRun(new RunSpec(
                        label, out, command, dbFile, Optional.ofNullable(expected), Duration.ofMillis(intervalMs)))
                .run();
        System.out.println(summary.json().toPrettyString());
        return summary.failed() ? 3 : 0;
    }
}
