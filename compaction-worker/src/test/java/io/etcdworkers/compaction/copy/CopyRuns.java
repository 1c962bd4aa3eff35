package io.etcdworkers.compaction.copy;

import io.etcdworkers.compaction.cli.CompactionWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The copy tests' shared steps: a fixture laid out as a Local source under a prefix, a run, a look at a directory. */
final class CopyRuns {
    private CopyRuns() {}

    /** The v0.23.0 fixture's {@code bucket} copied to {@code <container>/<prefix>/v2/}; returns the container. */
    static Path localSource(Path container, String prefix, String bucket) {
        Path copied = Fixtures.copyBucket(bucket, container.resolveSibling(container.getFileName() + "-staging"));
        try {
            Path v2 = container.resolve(prefix).resolve("v2");
            Files.createDirectories(v2.getParent());
            Files.move(copied.resolve("v2"), v2);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return container;
    }

    static CommandRun copy(Map<String, String> env, Path dir, List<String> args) {
        List<String> all = new ArrayList<>(List.of("copy", "--snapstore-temp-directory=" + dir.resolve("tmp")));
        all.addAll(args);
        return CommandRun.run(
                WorkerContext::new, (c, a) -> CompactionWorkerCommand.run(c, a), env, dir, all.toArray(String[]::new));
    }

    /** Every file under {@code dir} by its path relative to it, with its size. */
    static Map<String, Long> files(Path dir) {
        Map<String, Long> found = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return found;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) walk::iterator) {
                if (Files.isRegularFile(file)) {
                    found.put(dir.relativize(file).toString(), Files.size(file));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }
}
