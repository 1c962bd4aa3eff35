package io.etcdworkers.format.codec;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * An input stream that reads in bulk only: {@link #read()} and the argument checks of {@link
 * #read(byte[], int, int)} are here, once, and a subclass gives at least one byte per {@link
 * #readSome} call, or -1 at its end. Reading after {@link #markClosed} fails.
 */
public abstract class BulkInputStream extends InputStream {
    private final byte[] one = new byte[1];
    private boolean closed;

    /** Reads into {@code b[off, off + len)}, {@code len > 0}: at least one byte, or -1 at the end. */
    protected abstract int readSome(byte[] b, int off, int len) throws IOException;

    @Override
    public final int read() throws IOException {
        int n;
        do {
            n = read(one, 0, 1);
        } while (n == 0);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public final int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (closed) {
            throw new IOException("Stream closed");
        }
        return len == 0 ? 0 : readSome(b, off, len);
    }

    /** Marks the stream closed; true the first time (the caller then releases what it holds). */
    protected final boolean markClosed() {
        boolean first = !closed;
        closed = true;
        return first;
    }
}
