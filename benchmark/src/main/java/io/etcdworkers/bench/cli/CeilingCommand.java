package io.etcdworkers.bench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.bench.measure.CeilingRun;
import io.etcdworkers.bench.measure.CeilingSpec;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ceiling}: sequential single-revision txns into the worker's kind of scratch etcd. */
@Command(
        name = "ceiling",
        mixinStandardHelpOptions = true,
        description = "Measures the raw sequential transaction rate on a bucket's base snapshot.")
public final class CeilingCommand implements Callable<Integer> {
    @Option(
            names = "--bucket-out",
            required = true,
            description = "A generated bucket's directory (holds bucket/ and expected.json).")
    Path bucketOut;

    @Option(names = "--txns", defaultValue = "30000", description = "Transactions to send. Default: ${DEFAULT-VALUE}.")
    int txns;

    @Option(names = "--scratch-dir", required = true, description = "Where the data dir goes (deleted after).")
    Path scratch;

    @Option(names = "--wal-dir", description = "Put the WAL here (a tmpfs); default: inside the data dir.")
    Path walDir;

    @Option(names = "--snapshot-count", description = "etcd's --snapshot-count; default: the worker's.")
    Long snapshotCount;

    @Option(names = "--out", required = true, description = "Result JSON file.")
    Path out;

    @Override
    public Integer call() throws Exception {
        // The worker's etcd components run tools in other working dirs: give them absolute paths.
        bucketOut = bucketOut.toAbsolutePath();
        scratch = scratch.toAbsolutePath();
        walDir = walDir == null ? null : walDir.toAbsolutePath();
        var expected =
                new ObjectMapper().readTree(bucketOut.resolve("expected.json").toFile());
        var result = new CeilingRun(new CeilingSpec(
                        bucketOut.resolve("bucket"),
                        expected.path("seed").asLong(),
                        expected.path("seedKeys").asInt(),
                        txns,
                        scratch,
                        Optional.ofNullable(walDir),
                        Optional.ofNullable(snapshotCount),
                        out))
                .run();
        System.out.println(result.toPrettyString());
        return 0;
    }
}
