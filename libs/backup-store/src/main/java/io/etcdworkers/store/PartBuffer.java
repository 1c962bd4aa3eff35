package io.etcdworkers.store;

import java.util.Arrays;

/**
 * The bytes of the part an upload is filling (an S3 part, an Azure block, a Swift segment): it
 * grows as bytes come, up to the part size, so small objects (most deltas) stay small in memory,
 * and hands each full part to the writer before taking more.
 */
public final class PartBuffer {
    private static final int INITIAL_BYTES = 64 * 1024;

    /** Receives a full part (the buffer's bytes) before more are written into it. */
    @FunctionalInterface
    public interface FullPart {
        void send();
    }

    private final int partSize;
    private byte[] bytes = new byte[0];
    private int size;

    public PartBuffer(int partSize) {
        if (partSize < 1) {
            throw new IllegalArgumentException("a part holds at least one byte");
        }
        this.partSize = partSize;
    }

    /** Copies {@code len} bytes in; each time the part is full and more follow, {@code full} sends it. */
    public void write(byte[] src, int off, int len, FullPart full) {
        while (len > 0) {
            if (size == partSize) {
                full.send();
                size = 0;
            }
            int n = Math.min(len, partSize - size);
            if (size + n > bytes.length) {
                int grown = Math.max(size + n, Math.max(INITIAL_BYTES, bytes.length * 2));
                bytes = Arrays.copyOf(bytes, Math.min(grown, partSize));
            }
            System.arraycopy(src, off, bytes, size, n);
            size += n;
            off += n;
            len -= n;
        }
    }

    /** The part's bytes: {@code array()[0 .. size())}, not copied (the caller must not keep them past a write). */
    public byte[] array() {
        return bytes;
    }

    public int size() {
        return size;
    }

    public int partSize() {
        return partSize;
    }

    /** The part was sent: the next write starts a new one in the same memory. */
    public void sent() {
        size = 0;
    }

    /** Drops the memory (after a commit or an abort). */
    public void release() {
        bytes = new byte[0];
        size = 0;
    }
}
