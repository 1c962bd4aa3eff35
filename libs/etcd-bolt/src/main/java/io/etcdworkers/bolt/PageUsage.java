package io.etcdworkers.bolt;

/**
 * How the pages of a bbolt file are used, from {@link BoltReader#checkPages()}.
 *
 * @param highWaterMark pages in use by the meta's count (meta pages included)
 * @param buckets buckets walked, the root bucket included
 * @param treePages pages of bucket trees (overflow pages included)
 * @param freelistPages pages of the freelist itself (0 when not written)
 * @param freePages pages the freelist lists as free
 * @param unaccounted pages below the high-water mark that nothing reaches (free pages of a
 *     file without a freelist; a leak in a file with one)
 */
public record PageUsage(
        long highWaterMark, long buckets, long treePages, long freelistPages, long freePages, long unaccounted) {}
