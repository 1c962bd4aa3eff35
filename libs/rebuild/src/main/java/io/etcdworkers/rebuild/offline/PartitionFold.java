package io.etcdworkers.rebuild.offline;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.files.FileTree;
import io.etcdworkers.files.OwnerOnly;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The second half of a fold that outgrew its memory: each partition of {@link EventPartitions}
 * folded on its own, by the same {@link KeyRules} the in-memory fold applies, then written as
 * two sorted runs. Only as many partitions' keys as there are folding threads are on the heap at
 * a time (a 64th of the keyspace each).
 *
 * <p>A change that does not continue its key is reported as the in-memory fold would have: the
 * earliest such change over all partitions, by revision, so the message names the same object
 * and revision whichever way the fold ran.
 */
final class PartitionFold {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionFold.class);

    private PartitionFold() {}

    /** The first inconsistent change of one partition. */
    private record Inconsistency(long mod, int sub, WorkerException error) {
        boolean before(Inconsistency o) {
            return o == null || mod < o.mod || (mod == o.mod && sub < o.sub);
        }
    }

    /** What folding one partition gave: its runs and keys, or its first inconsistent change. */
    private record Folded(Path byRevision, Path byKey, Set<Long> leases, long keys, Inconsistency inconsistency) {}

    /**
     * @param partitions the finished partition files; each is deleted once folded
     * @param objects the delta names the changes index
     * @param runDir where the sorted runs (and each partition's value spill) go
     * @param threads partitions folded at the same time (each holds its own keys on the heap)
     */
    static PartitionedKeys fold(
            List<Path> partitions, List<String> objects, Path runDir, Duration progressEvery, int threads)
            throws IOException, InterruptedException {
        OwnerOnly.createDirectories(runDir);
        List<Path> byRevision = new ArrayList<>();
        List<Path> byKey = new ArrayList<>();
        Set<Long> leases = new HashSet<>();
        long keys = 0;
        long largest = 0;
        Inconsistency first = null;
        long started = System.nanoTime();
        long logged = started;
        boolean done = false;
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "fold-partition");
            t.setDaemon(true);
            return t;
        });
        List<Future<Folded>> pending = new ArrayList<>();
        try {
            for (int i = 0; i < partitions.size(); i++) {
                int index = i;
                pending.add(pool.submit(() -> foldOne(index, partitions.get(index), objects, runDir)));
            }
            for (int i = 0; i < pending.size(); i++) {
                Folded f = Waits.result(pending.get(i));
                if (f.byRevision() != null) {
                    byRevision.add(f.byRevision());
                    byKey.add(f.byKey());
                }
                if (f.inconsistency() != null) {
                    first = f.inconsistency().before(first) ? f.inconsistency() : first;
                }
                leases.addAll(f.leases());
                keys += f.keys();
                largest = Math.max(largest, f.keys());
                if (System.nanoTime() - logged >= progressEvery.toNanos()) {
                    logged = System.nanoTime();
                    LOG.info("offline fold partitions folded={}/{} liveKeys={}", i + 1, partitions.size(), keys);
                }
            }
            if (first != null) {
                throw first.error();
            }
            LOG.info(
                    "offline fold partitions={} threads={} liveKeys={} largestPartition={} ms={}",
                    partitions.size(),
                    threads,
                    keys,
                    largest,
                    (System.nanoTime() - started) / 1_000_000);
            done = true;
            return new PartitionedKeys(byRevision, byKey, leases, keys);
        } finally {
            pool.shutdownNow();
            if (!done) {
                // a failed partition: wait for the others to stop before removing what they wrote
                pool.awaitTermination(1, TimeUnit.MINUTES);
                try (var left = Files.list(runDir)) {
                    for (Path p : left.toList()) {
                        FileTree.delete(p);
                    }
                }
                for (Path p : partitions) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** Folds one partition in its own dir; writes its runs unless it holds an inconsistent change. */
    private static Folded foldOne(int index, Path partition, List<String> objects, Path runDir) throws IOException {
        Path own = OwnerOnly.createDirectories(runDir.resolve(String.format("partition-%03d", index)));
        try (LiveKeys live = new LiveKeys(own)) {
            Inconsistency found = replay(partition, objects, live);
            Files.deleteIfExists(partition);
            if (found != null) {
                return new Folded(null, null, Set.of(), 0, found);
            }
            Path rev = runDir.resolve(String.format("run-%03d.by-revision", index));
            Path key = runDir.resolve(String.format("run-%03d.by-key", index));
            try (SortedRun.Writer out = new SortedRun.Writer(rev)) {
                live.byRevision(out::add);
            }
            try (SortedRun.Writer out = new SortedRun.Writer(key)) {
                live.byKey(out::add);
            }
            return new Folded(rev, key, live.leaseIds(), live.size(), null);
        } finally {
            Files.deleteIfExists(own);
        }
    }

    /** @return the partition's first inconsistent change, or null when all of it continues */
    private static Inconsistency replay(Path partition, List<String> objects, LiveKeys live) throws IOException {
        try (EventPartitions.Reader in = new EventPartitions.Reader(partition)) {
            EventPartitions.Change c;
            while ((c = in.next()) != null) {
                try {
                    apply(c, objects, live);
                } catch (WorkerException e) {
                    if (e.code() != ErrorCode.BACKUP_INCONSISTENT) {
                        throw e;
                    }
                    return new Inconsistency(c.state().mod(), c.state().sub(), e);
                }
            }
            return null;
        }
    }

    private static void apply(EventPartitions.Change c, List<String> objects, LiveKeys live) throws IOException {
        FoldedKey k = c.state();
        switch (c.kind()) {
            case SET -> KeyRules.set(live, k.key(), k.value(), k.create(), k.mod(), k.sub(), k.version(), k.lease());
            case UNSET -> KeyRules.unset(live, k.key());
            case PUT ->
                KeyRules.put(
                        live,
                        objects.get(c.object()),
                        k.key(),
                        live.store(k.value()),
                        k.create(),
                        k.mod(),
                        k.sub(),
                        k.version(),
                        k.lease());
            case DELETE -> KeyRules.delete(live, objects.get(c.object()), k.key(), k.mod());
        }
    }
}
