package io.etcdworkers.store.gcs;

import com.google.cloud.ReadChannel;
import io.etcdworkers.store.gcs.GcsErrorTranslator.Target;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * An object body read through the SDK's {@link ReadChannel}: one streaming GET (ranged when the
 * channel was positioned) that the SDK checks against its Content-Length and, when it breaks
 * off, resumes at the byte reached, pinned to the generation it started on. What it throws after
 * its retries becomes a {@link io.etcdworkers.contract.WorkerException} (a 404 is an object
 * that vanished), so a decompressor wrapped around this stream never mistakes a store failure
 * for corrupt content.
 *
 * <p>{@link #prime()} reads the first bytes, so that a missing object fails where it is opened.
 */
final class GcsReadStream extends InputStream {
    private static final int BUFFER = 64 * 1024;

    private final ReadChannel channel;
    private final GcsErrorTranslator errors;
    private final String action;
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER).flip();
    private boolean eof;
    private boolean closed;

    /** @param action what the reads are, for messages ({@code reading "p/v2/Full-..."}) */
    GcsReadStream(ReadChannel channel, GcsErrorTranslator errors, String action) {
        this.channel = channel;
        this.errors = errors;
        this.action = action;
    }

    /** Sends the request and reads the first bytes; closes the channel when that fails. */
    GcsReadStream prime() {
        try {
            fill();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        return this;
    }

    @Override
    public int read() {
        if (!fill()) {
            return -1;
        }
        return buffer.get() & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(len, buffer.remaining());
        buffer.get(b, off, n);
        return n;
    }

    @Override
    public int available() {
        return buffer.remaining();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            // Closing the channel releases its HTTP response; nothing of it needs reporting.
            channel.close();
        }
    }

    /** Whether bytes are buffered, after refilling the buffer if it was empty. */
    private boolean fill() {
        if (closed) {
            throw new IllegalStateException("stream closed: " + action);
        }
        while (!buffer.hasRemaining() && !eof) {
            buffer.clear();
            int n;
            try {
                n = channel.read(buffer);
            } catch (Exception e) {
                buffer.clear().flip();
                throw errors.translate(e, action, Target.OBJECT);
            }
            buffer.flip();
            eof = n < 0;
        }
        return buffer.hasRemaining();
    }
}
