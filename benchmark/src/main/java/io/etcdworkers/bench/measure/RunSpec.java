package io.etcdworkers.bench.measure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One measured worker run.
 *
 * @param label names the run in tables and charts ({@code restore-300k-policy-disk})
 * @param outDir gets {@code samples.csv}, {@code worker.log}, {@code result.json}, {@code summary.json}
 * @param command the full command line, normally {@code /usr/bin/time -v -o <outDir>/time.txt java ... -jar
 *     worker.jar restore ...}; the sampled tree is rooted at this process (a {@code time} root itself
 *     is left out of the memory sum)
 * @param dbFile the scratch database file to watch (the verifying etcd's, under {@code <scratch>/restore-NNN/verify.etcd/member/snap/db})
 * @param expected the generator's {@code expected.json}, to check the result's digests
 * @param interval sampling interval
 */
public record RunSpec(
        String label, Path outDir, List<String> command, Path dbFile, Optional<Path> expected, Duration interval) {

    public Path timeFile() {
        return outDir.resolve("time.txt");
    }

    public Path gcLog() {
        return outDir.resolve("gc.log");
    }
}
