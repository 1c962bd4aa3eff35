package io.etcdworkers.bench.cli;

import picocli.CommandLine;

/** Entry point of {@code benchmark.jar}. */
public final class BenchMain {
    private BenchMain() {}

    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchCommand()).execute(args));
    }
}
