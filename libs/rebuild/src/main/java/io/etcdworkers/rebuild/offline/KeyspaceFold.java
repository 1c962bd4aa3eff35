package io.etcdworkers.rebuild.offline;

import io.etcdworkers.files.DiskFull;
import io.etcdworkers.files.ValueRef;
import io.etcdworkers.format.DeltaEvent;
import io.etcdworkers.format.EventType;
import io.etcdworkers.format.RevisionGroup;
import io.etcdworkers.rebuild.engine.FoldWork;
import io.etcdworkers.rebuild.engine.KeyPrefix;
import io.etcdworkers.rebuild.sequence.RevisionSink;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The offline engine's sink: folds history into the final state of every key, the way etcd's
 * MVCC store would apply it ({@link KeyRules}). A change that does not continue its base is
 * refused with the object and revision named. The order of revisions is the {@link
 * io.etcdworkers.rebuild.sequence.RevisionSequence}'s to check.
 *
 * <p>The live keys stay on the heap while they fit the fold's memory budget. Past it, they and
 * every later change go to key partitions on disk ({@link EventPartitions}), which {@link
 * #finish} folds apart: the heap then holds a few partitions' keys, not the keyspace.
 */
final class KeyspaceFold implements RevisionSink {
    private static final Logger LOG = LoggerFactory.getLogger(KeyspaceFold.class);

    private final LiveKeys live;
    private final KeyPrefix keys;
    private final long memoryBudget;
    private final Path partitionDir;
    private final int partitionCount;
    private final List<String> objects = new ArrayList<>();
    private EventPartitions partitions;
    private long baseMaxRevision;
    private long baseRevision = -1;

    KeyspaceFold(LiveKeys live) {
        this(live, KeyPrefix.ALL, Long.MAX_VALUE, null, EventPartitions.DEFAULT_COUNT);
    }

    /**
     * @param keys only keys under this prefix are kept; the others are skipped (their revisions still count)
     * @param memoryBudget heap the live keys may take ({@link LiveKeys#heapEstimate}) before they are partitioned
     * @param partitionDir where partitions and sorted runs go once they are
     */
    KeyspaceFold(LiveKeys live, KeyPrefix keys, long memoryBudget, Path partitionDir, int partitionCount) {
        this.live = live;
        this.keys = keys;
        this.memoryBudget = memoryBudget;
        this.partitionDir = partitionDir;
        this.partitionCount = partitionCount;
    }

    /** One entry of the base database's key bucket, in bucket (revision) order. */
    void baseEntry(BaseKeyEntry entry) throws IOException {
        if (baseRevision >= 0) {
            throw new IllegalStateException("base entries after the base was closed");
        }
        baseMaxRevision = Math.max(baseMaxRevision, entry.main());
        if (!keys.matches(entry.key())) {
            return;
        }
        if (partitions != null) {
            partitions.add(
                    entry.tombstone() ? EventPartitions.Kind.UNSET : EventPartitions.Kind.SET,
                    -1,
                    entry.key(),
                    entry.value(),
                    entry.create(),
                    entry.main(),
                    entry.sub(),
                    entry.version(),
                    entry.lease());
        } else if (entry.tombstone()) {
            KeyRules.unset(live, entry.key());
        } else {
            KeyRules.set(
                    live,
                    entry.key(),
                    entry.value(),
                    entry.create(),
                    entry.main(),
                    entry.sub(),
                    entry.version(),
                    entry.lease());
            partitionIfOverBudget();
        }
    }

    /**
     * Ends the base: its revision is its newest entry's, or its compaction revision when that is
     * higher (etcd's rule when it opens a database whose newest entries were compacted away).
     */
    void endBase(long compactedRevision) {
        baseRevision = Math.max(baseMaxRevision, compactedRevision);
    }

    long baseRevision() {
        return baseRevision;
    }

    /** The budget, and how much went to partitions. */
    FoldWork work() {
        return partitions == null
                ? new FoldWork(memoryBudget, 0, 0, false, FoldWork.EarlyStart.NO)
                : new FoldWork(memoryBudget, partitions.count(), partitions.bytes(), false, FoldWork.EarlyStart.NO);
    }

    /** The partition {@code key}'s changes go to once the fold is partitioned. */
    int partitionOf(byte[] key) {
        return EventPartitions.partition(key, partitionCount);
    }

    /** Whether the keys went to disk partitions. */
    boolean partitioned() {
        return partitions != null;
    }

    /** Applies one admitted revision, its events in group order as sub revisions. */
    @Override
    public void apply(String objectName, RevisionGroup group) throws IOException {
        if (baseRevision < 0) {
            throw new IllegalStateException("revisions before the base was closed");
        }
        try {
            fold(objectName, group);
        } catch (IOException e) {
            // the value spill and the partitions are under the partition dir: say which disk is full
            throw partitionDir != null && DiskFull.is(e) ? new IOException(DiskFull.explain(e, partitionDir), e) : e;
        }
    }

    private void fold(String objectName, RevisionGroup group) throws IOException {
        int sub = 0;
        for (DeltaEvent event : group.events()) {
            if (keys.matches(event.key())) {
                if (partitions != null) {
                    partitions.add(
                            event.type() == EventType.PUT ? EventPartitions.Kind.PUT : EventPartitions.Kind.DELETE,
                            objectIndex(objectName),
                            event.key(),
                            valueOf(event),
                            event.createRevision(),
                            event.modRevision(),
                            sub,
                            event.version(),
                            event.lease());
                } else if (event.type() == EventType.PUT) {
                    // a decoded delta's value stays in its file; the key only points at it
                    ValueRef value = event.stored() != null ? event.stored() : live.store(event.value());
                    KeyRules.put(
                            live,
                            objectName,
                            event.key(),
                            value,
                            event.createRevision(),
                            event.modRevision(),
                            sub,
                            event.version(),
                            event.lease());
                } else {
                    KeyRules.delete(live, objectName, event.key(), event.modRevision());
                }
            }
            sub++;
        }
        if (partitions == null) {
            partitionIfOverBudget();
        }
    }

    private static byte[] valueOf(DeltaEvent event) throws IOException {
        return event.stored() != null ? event.stored().read() : event.value();
    }

    /**
     * The fold's live keys: those on the heap, or, when it was partitioned, each partition folded
     * now and written as sorted runs.
     *
     * @throws io.etcdworkers.contract.WorkerException {@code BACKUP_INCONSISTENT} for a partitioned
     *     change that does not continue its key
     */
    FoldedKeys finish(Duration progressEvery, int threads) throws IOException, InterruptedException {
        if (partitions == null) {
            return live;
        }
        List<Path> files = partitions.finish();
        // as many partitions at once as the budget holds, so folding them stays within it too
        long largest = Math.max(1, partitions.largestPartitionHeap());
        int parallel = (int) Math.max(1, Math.min(threads, memoryBudget / largest));
        LOG.info(
                "offline fold partitioned changes={} bytes={}: folding {} partitions, {} at a time (each at most "
                        + "{} MiB of keys)",
                partitions.changes(),
                partitions.bytes(),
                files.size(),
                parallel,
                largest >> 20);
        return PartitionFold.fold(files, objects, partitionDir.resolve("runs"), progressEvery, parallel);
    }

    @Override
    public String progressDetail() {
        if (partitions != null) {
            return "partitionedChanges=" + partitions.changes() + " partitionedBytes=" + partitions.bytes();
        }
        return "liveKeys=" + live.size() + " liveValueBytes=" + live.liveValueBytes() + " valueFileBytes="
                + live.valueFileBytes() + " deltaValueFiles=" + live.deltaFiles();
    }

    private int objectIndex(String objectName) {
        int last = objects.size() - 1;
        if (last < 0 || !objects.get(last).equals(objectName)) {
            objects.add(objectName);
            last++;
        }
        return last;
    }

    private void partitionIfOverBudget() throws IOException {
        if (live.heapEstimate() <= memoryBudget) {
            return;
        }
        EventPartitions out = new EventPartitions(partitionDir.resolve("partitions"), partitionCount);
        long moved = live.size();
        long estimate = live.heapEstimate();
        live.inValueOrder(k -> out.add(
                EventPartitions.Kind.SET,
                -1,
                k.key(),
                k.value(),
                k.create(),
                k.mod(),
                k.sub(),
                k.version(),
                k.lease()));
        live.release();
        partitions = out;
        LOG.info(
                "offline fold: {} live keys need about {} MiB of heap, over the fold's {} MiB: they and every "
                        + "later change go to {} key partitions under {}",
                moved,
                estimate >> 20,
                memoryBudget >> 20,
                partitionCount,
                out.dir());
    }

    /** Closes the partitions (and removes them) if the fold ends before {@link #finish}. */
    void abandon() throws IOException {
        if (partitions != null) {
            partitions.close();
        }
    }

    static String printable(byte[] key) {
        return KeyRules.printable(key);
    }
}
