package io.etcdworkers.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Finds processes a test started, to prove none is left behind. */
public final class Processes {
    private Processes() {}

    /** Live processes whose command line mentions {@code path} (e.g. an etcd on a test's data dir). */
    public static List<ProcessHandle> mentioning(Path path) {
        String needle = path.toString();
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains(needle)).orElse(false))
                .filter(p -> p.pid() != ProcessHandle.current().pid())
                .toList();
    }

    /**
     * Waits (bounded) until no process mentions {@code path}: an etcd's orphan guard exits a
     * moment after etcd does, so "none left" is checked with a short grace.
     */
    public static void awaitNoneMentioning(Path path) {
        org.awaitility.Awaitility.await("no process left that mentions " + path)
                .atMost(Duration.ofSeconds(15))
                .until(() -> mentioning(path).isEmpty());
    }

    /** Live etcd processes that descend from this JVM. */
    public static List<ProcessHandle> etcdChildren() {
        return ProcessHandle.current()
                .descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith("/etcd")).orElse(false))
                .toList();
    }
}
