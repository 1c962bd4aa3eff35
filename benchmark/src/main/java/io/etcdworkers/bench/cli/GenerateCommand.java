package io.etcdworkers.bench.cli;

import io.etcdworkers.bench.generate.BucketGenerator;
import io.etcdworkers.bench.generate.BucketSpec;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code generate}: one bucket (a real etcd's full snapshot + synthesized deltas) and its expected digest. */
@Command(
        name = "generate",
        mixinStandardHelpOptions = true,
        description = "Writes <out>/bucket/v2/{Full,Incr}-* and <out>/expected.json.")
public final class GenerateCommand implements Callable<Integer> {
    @Option(names = "--out", required = true, description = "Output directory.")
    Path out;

    @Option(names = "--events", required = true, description = "Delta events after the base snapshot.")
    long events;

    @Option(
            names = "--seed-keys",
            defaultValue = "50000",
            description = "Keys in the base snapshot. Default: ${DEFAULT-VALUE}.")
    int seedKeys;

    @Option(names = "--seed", defaultValue = "7", description = "Random seed. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--etcd", defaultValue = "/usr/bin/etcd", description = "etcd binary. Default: ${DEFAULT-VALUE}.")
    Path etcd;

    @Option(
            names = "--small-values",
            description = "Values of 16 to 64 bytes instead of 1 to 4 KiB: keyspaces of "
                    + "millions of keys, as many small Kubernetes objects (leases, endpoints) make them.")
    boolean smallValues;

    @Override
    public Integer call() throws Exception {
        var json = new BucketGenerator(new BucketSpec(out, events, seedKeys, seed, etcd, smallValues)).generate();
        System.out.println(json.toPrettyString());
        return 0;
    }
}
