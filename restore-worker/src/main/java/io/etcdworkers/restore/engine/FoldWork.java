package io.etcdworkers.restore.engine;

/**
 * What only the offline fold does.
 *
 * @param memoryBudgetBytes heap the fold's live keys could take before going to disk partitions
 * @param partitions key partitions it folded one at a time; 0 when every key stayed on the heap
 * @param partitionedBytes bytes of changes written to those partitions
 * @param baseAsIs nothing was folded into a base that already holds one live entry per key, so
 *     the base's own database was restored and verified instead of a rewritten one
 */
public record FoldWork(long memoryBudgetBytes, int partitions, long partitionedBytes, boolean baseAsIs) {

    /** The same work, with the base's database used as it is. */
    public FoldWork withBaseAsIs() {
        return new FoldWork(memoryBudgetBytes, partitions, partitionedBytes, true);
    }
}
