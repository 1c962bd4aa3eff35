package io.etcdworkers.format.codec;

import java.util.ArrayList;
import java.util.List;

/**
 * {@link MappedBuffer}s reused from one object to the next: mapping fresh memory for each delta
 * cost more in page faults (twice the system time of a 300,000-event restore) than decompressing
 * it saved. Holds at most as many as were in use at once, each rounded up to {@link #GRANULE};
 * {@link #close()} unmaps them, and a buffer given back after that is unmapped at once.
 */
final class BufferPool implements AutoCloseable {
    static final long GRANULE = 4L << 20;

    private final List<MappedBuffer> free = new ArrayList<>();
    private boolean closed;

    /** A buffer of at least {@code bytes}: a free one that is large enough, else a new one. */
    MappedBuffer take(long bytes) {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("buffer pool closed");
            }
            MappedBuffer best = null;
            for (MappedBuffer b : free) {
                if (b.length() >= bytes && (best == null || b.length() < best.length())) {
                    best = b;
                }
            }
            if (best != null) {
                free.remove(best);
                return best;
            }
            if (!free.isEmpty()) {
                // none is large enough: the largest makes room for the new one
                MappedBuffer largest = free.get(0);
                for (MappedBuffer b : free) {
                    largest = b.length() > largest.length() ? b : largest;
                }
                free.remove(largest);
                largest.close();
            }
        }
        return new MappedBuffer((bytes + GRANULE - 1) / GRANULE * GRANULE);
    }

    /** Takes {@code buffer} back for a later {@link #take}, or unmaps it when closed. */
    void give(MappedBuffer buffer) {
        synchronized (this) {
            if (!closed) {
                free.add(buffer);
                return;
            }
        }
        buffer.close();
    }

    /** Buffers free for reuse (tests watch the accounting). */
    synchronized int freeCount() {
        return free.size();
    }

    @Override
    public synchronized void close() {
        closed = true;
        free.forEach(MappedBuffer::close);
        free.clear();
    }
}
