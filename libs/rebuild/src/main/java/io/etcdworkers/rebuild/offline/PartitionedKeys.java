package io.etcdworkers.rebuild.offline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The live keys of a fold that outgrew its memory: each partition's keys in two sorted runs on
 * disk, one by revision and one by key, read back merged. The heap holds one buffer per run.
 */
final class PartitionedKeys implements FoldedKeys {
    private final List<Path> byRevision;
    private final List<Path> byKey;
    private final Set<Long> leaseIds;
    private final long size;

    PartitionedKeys(List<Path> byRevision, List<Path> byKey, Set<Long> leaseIds, long size) {
        this.byRevision = List.copyOf(byRevision);
        this.byKey = List.copyOf(byKey);
        this.leaseIds = Set.copyOf(leaseIds);
        this.size = size;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public Set<Long> leaseIds() {
        return leaseIds;
    }

    @Override
    public void byRevision(Visitor visitor) throws IOException {
        SortedRun.merge(byRevision, FoldedKey.BY_REVISION, visitor);
    }

    @Override
    public void byKey(Visitor visitor) throws IOException {
        SortedRun.merge(byKey, FoldedKey.BY_KEY, visitor);
    }

    /** Each walk opens cursors of its own over runs no one writes any more: nothing to do. */
    @Override
    public void settle() {}

    @Override
    public void close() throws IOException {
        for (Path p : byRevision) {
            Files.deleteIfExists(p);
        }
        for (Path p : byKey) {
            Files.deleteIfExists(p);
        }
    }
}
