package io.etcdworkers.bench.cli;

import picocli.CommandLine.Command;

/** {@code bench}: the benchmark's subcommands; {@code bench/run.sh} strings them together. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        subcommands = {
            GenerateCommand.class,
            CeilingCommand.class,
            RunCommand.class,
            PlotCommand.class,
            TableCommand.class
        },
        description = "Benchmark harness of the etcd workers (docs/benchmarks.md).")
public final class BenchCommand {}
