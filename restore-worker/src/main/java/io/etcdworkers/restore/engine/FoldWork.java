package io.etcdworkers.restore.engine;

/**
 * What only the offline fold does.
 *
 * @param memoryBudgetBytes heap the fold's live keys could take before going to disk partitions
 * @param partitions key partitions it folded one at a time; 0 when every key stayed on the heap
 * @param partitionedBytes bytes of changes written to those partitions
 */
public record FoldWork(long memoryBudgetBytes, int partitions, long partitionedBytes) {}
