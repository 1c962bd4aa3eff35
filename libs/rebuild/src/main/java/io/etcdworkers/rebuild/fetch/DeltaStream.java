package io.etcdworkers.rebuild.fetch;

/**
 * The deltas of a chain as one ordered sequence of items, each delta already downloaded,
 * hash-checked and decoded: the fetch/decode stage both engines read from. Closing it stops
 * every thread behind it and leaves no file of its own in the download dir.
 */
public interface DeltaStream extends AutoCloseable {

    /** The next item; a failure to fetch or decode is thrown here, in order. */
    DeltaItem next() throws InterruptedException;

    /** The consumer is done with {@code group}: its memory may be used again. */
    default void release(DeltaItem.Group group) {}

    @Override
    void close() throws InterruptedException;
}
