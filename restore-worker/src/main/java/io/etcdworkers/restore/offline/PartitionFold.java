package io.etcdworkers.restore.offline;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The second half of a fold that outgrew its memory: each partition of {@link EventPartitions}
 * folded on its own, by the same {@link KeyRules} the in-memory fold applies, then written as
 * two sorted runs. Only one partition's keys are on the heap at a time.
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

    /**
     * @param partitions the finished partition files; each is deleted once folded
     * @param objects the delta names the changes index
     * @param runDir where the sorted runs (and each partition's value spill) go
     */
    static PartitionedKeys fold(List<Path> partitions, List<String> objects, Path runDir, Duration progressEvery)
            throws IOException {
        Files.createDirectories(runDir);
        List<Path> byRevision = new ArrayList<>();
        List<Path> byKey = new ArrayList<>();
        Set<Long> leases = new HashSet<>();
        long keys = 0;
        long largest = 0;
        Inconsistency first = null;
        long started = System.nanoTime();
        long logged = started;
        boolean done = false;
        try {
            for (int i = 0; i < partitions.size(); i++) {
                try (LiveKeys live = new LiveKeys(runDir)) {
                    Inconsistency found = replay(partitions.get(i), objects, live);
                    if (found != null) {
                        first = found.before(first) ? found : first;
                    } else if (first == null) {
                        Path rev = runDir.resolve(String.format("run-%03d.by-revision", i));
                        Path key = runDir.resolve(String.format("run-%03d.by-key", i));
                        byRevision.add(rev);
                        byKey.add(key);
                        write(live, rev, key, leases);
                        keys += live.size();
                        largest = Math.max(largest, live.size());
                    }
                }
                Files.deleteIfExists(partitions.get(i));
                if (System.nanoTime() - logged >= progressEvery.toNanos()) {
                    logged = System.nanoTime();
                    LOG.info("offline fold partitions folded={}/{} liveKeys={}", i + 1, partitions.size(), keys);
                }
            }
            if (first != null) {
                throw first.error();
            }
            LOG.info("offline fold partitions={} liveKeys={} largestPartition={} ms={}", partitions.size(), keys,
                    largest, (System.nanoTime() - started) / 1_000_000);
            done = true;
            return new PartitionedKeys(byRevision, byKey, leases, keys);
        } finally {
            if (!done) {
                for (Path p : partitions) {
                    Files.deleteIfExists(p);
                }
                for (Path p : byRevision) {
                    Files.deleteIfExists(p);
                }
                for (Path p : byKey) {
                    Files.deleteIfExists(p);
                }
            }
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
                    return new Inconsistency(c.mod(), c.sub(), e);
                }
            }
            return null;
        }
    }

    private static void apply(EventPartitions.Change c, List<String> objects, LiveKeys live) throws IOException {
        switch (c.kind()) {
            case SET -> KeyRules.set(live, c.key(), c.value(), c.create(), c.mod(), c.sub(), c.version(), c.lease());
            case UNSET -> KeyRules.unset(live, c.key());
            case PUT -> KeyRules.put(live, objects.get(c.object()), c.key(), c.value(), c.create(), c.mod(), c.sub(),
                    c.version(), c.lease());
            case DELETE -> KeyRules.delete(live, objects.get(c.object()), c.key(), c.mod());
        }
    }

    private static void write(LiveKeys live, Path byRevision, Path byKey, Set<Long> leases) throws IOException {
        try (SortedRun.Writer out = new SortedRun.Writer(byRevision)) {
            live.byRevision(out::add);
        }
        try (SortedRun.Writer out = new SortedRun.Writer(byKey)) {
            live.byKey(out::add);
        }
        leases.addAll(live.leaseIds());
    }
}
