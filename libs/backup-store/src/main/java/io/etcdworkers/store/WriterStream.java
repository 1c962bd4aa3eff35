package io.etcdworkers.store;

import java.io.OutputStream;
import java.util.Objects;

/**
 * The {@link java.io.OutputStream} an upload writer hands out: every write goes to the writer's
 * own chunk method. Closing it only flushes (there is nothing to flush): commit and abort belong
 * to the writer.
 */
public final class WriterStream extends OutputStream {
    /** Takes {@code len} bytes of {@code b} from {@code off}, bounds already checked. */
    @FunctionalInterface
    public interface Chunks {
        void write(byte[] b, int off, int len);
    }

    private final Chunks chunks;

    public WriterStream(Chunks chunks) {
        this.chunks = Objects.requireNonNull(chunks, "chunks");
    }

    @Override
    public void write(int b) {
        chunks.write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length);
        chunks.write(b, off, len);
    }
}
