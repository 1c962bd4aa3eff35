package io.etcdworkers.format.codec;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The input cut into fixed chunks, each encoded on one of several threads, the encoded chunks
 * written to the sink in input order: what a subclass encodes a chunk into, and what it writes
 * before the first and after the last, is its own ({@link #encoder}, {@link #begin}, {@link #end}).
 *
 * <p>The bytes written depend on the input only, never on the number of threads or on how the
 * input was cut into writes: with one thread the same chunks are encoded inline. At most
 * {@code 2 x threads} chunks are in flight, plus the first {@code lookahead} chunks, which are
 * held until it is known whether the input ends within them ({@link #begin}'s argument), so
 * memory stays a few MiB whatever the size of the input. Input and output buffers are direct:
 * native encoders read and write them in place (heap arrays would be pinned for each call, which
 * makes the collector wait and then promote the chunks in flight).
 *
 * <p>{@link #close} finishes the stream and closes the sink, even when finishing fails; a failed
 * write leaves the stream unusable (the caller aborts the upload it was writing).
 */
abstract class ParallelChunksOutputStream extends OutputStream {
    static final int CHUNK_SIZE = 1 << 20;
    private static final int FIRST_BUFFER = 64 * 1024;

    private final OutputStream sink;
    private final ExecutorService pool;
    private final int maxInFlight;
    private final int lookahead;
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    /** The first chunks, until the input outgrows the lookahead or ends. */
    private final ArrayDeque<ByteBuffer> held = new ArrayDeque<>();
    /** Input buffers whose chunk is written: reused, so a long stream makes little garbage. */
    private final ArrayDeque<ByteBuffer> spare = new ArrayDeque<>();

    private final ThreadLocal<ByteBuffer> output = new ThreadLocal<>();
    /** Starts small (most deltas a generator or a test writes are), grows to a chunk when filled. */
    private ByteBuffer chunk = ByteBuffer.allocateDirect(FIRST_BUFFER);

    private boolean begun;
    private boolean closed;
    private IOException failed;

    private record InFlight(Future<byte[]> encoded, ByteBuffer input) {}

    /**
     * @param lookahead chunks held before the first is encoded, so that {@link #begin} can be told
     *     the input ends within them
     */
    ParallelChunksOutputStream(OutputStream sink, int threads, int lookahead, String threadName) {
        this.sink = Objects.requireNonNull(sink, "sink");
        if (threads < 1) {
            throw new IllegalArgumentException("threads < 1: " + threads);
        }
        if (lookahead < 0) {
            throw new IllegalArgumentException("lookahead < 0: " + lookahead);
        }
        this.pool = threads == 1
                ? null
                : Executors.newFixedThreadPool(threads, r -> {
                    Thread t = new Thread(r, threadName);
                    t.setDaemon(true);
                    return t;
                });
        this.maxInFlight = 2 * threads;
        this.lookahead = lookahead;
    }

    /** Threads that pay off on this machine (or container): its processors, at least one. */
    static int defaultThreads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Called once, before the first chunk is encoded, on the writing thread.
     *
     * @param whole the input has ended: every chunk of it is among the first {@code lookahead + 1}
     * @param sink where a header goes
     */
    protected abstract void begin(boolean whole, OutputStream sink) throws IOException;

    /**
     * Called for each chunk in input order on the writing thread (what depends on the order, such
     * as a running checksum, is done here); returns the work a pool thread does to encode it. The
     * chunk is flipped for reading and must not be changed; it is reused once its work is done.
     */
    protected abstract Callable<byte[]> encoder(ByteBuffer chunk, boolean last);

    /** Called once after the last chunk is written: a trailer. */
    protected abstract void end(OutputStream sink) throws IOException;

    /**
     * The calling thread's own direct buffer of at least {@code capacity} bytes, cleared: where an
     * encoder writes a chunk before copying it out at its size.
     */
    protected final ByteBuffer outputBuffer(int capacity) {
        ByteBuffer out = output.get();
        if (out == null || out.capacity() < capacity) {
            out = ByteBuffer.allocateDirect(capacity);
            output.set(out);
        }
        return out.clear();
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        while (len > 0) {
            if (!chunk.hasRemaining()) {
                if (chunk.capacity() < CHUNK_SIZE) {
                    chunk = ByteBuffer.allocateDirect(CHUNK_SIZE).put(chunk.flip());
                } else {
                    submit(false);
                }
            }
            int n = Math.min(len, chunk.remaining());
            chunk.put(b, off, n);
            off += n;
            len -= n;
        }
    }

    /** Encoded chunks go out as they are ready; a partly filled chunk waits for more input or {@link #close}. */
    @Override
    public void flush() throws IOException {
        ensureOpen();
        sink.flush();
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (sink) {
            if (failed != null) {
                throw failed;
            }
            submit(true);
            while (!inFlight.isEmpty()) {
                writeOldest();
            }
            end(sink);
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            } else {
                output.remove();
            }
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("stream closed");
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** Holds the current chunk while looking ahead, else hands it on; then writes what is done, in order. */
    private void submit(boolean last) throws IOException {
        try {
            ByteBuffer input = chunk.flip();
            chunk = last
                    ? null
                    : spare.isEmpty()
                            ? ByteBuffer.allocateDirect(CHUNK_SIZE)
                            : spare.pop().clear();
            if (begun) {
                dispatch(input, last);
                return;
            }
            held.add(input);
            if (!last && held.size() <= lookahead) {
                return;
            }
            begun = true;
            begin(last, sink);
            while (!held.isEmpty()) {
                ByteBuffer next = held.remove();
                dispatch(next, last && held.isEmpty());
            }
        } catch (IOException | RuntimeException e) {
            fail(e);
        }
    }

    private void dispatch(ByteBuffer input, boolean last) throws IOException {
        Callable<byte[]> work = encoder(input, last);
        if (pool == null) {
            sink.write(call(work));
            spare.push(input);
            return;
        }
        inFlight.add(new InFlight(pool.submit(work), input));
        while (inFlight.size() >= maxInFlight
                || (!inFlight.isEmpty() && inFlight.peek().encoded().isDone())) {
            writeOldest();
        }
    }

    private static byte[] call(Callable<byte[]> work) throws IOException {
        try {
            return work.call();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("encoding a chunk failed: " + e, e);
        }
    }

    private void writeOldest() throws IOException {
        InFlight next = inFlight.remove();
        try {
            sink.write(next.encoded().get());
            if (!closed) {
                spare.push(next.input());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw fail(new InterruptedIOException("interrupted while encoding"));
        } catch (ExecutionException e) {
            throw fail(new IOException("encoding a chunk failed: " + e.getCause(), e.getCause()));
        }
    }

    private IOException fail(Exception e) throws IOException {
        IOException io = e instanceof IOException x ? x : new IOException(e.toString(), e);
        if (failed == null) {
            failed = io;
        }
        inFlight.forEach(f -> f.encoded().cancel(true));
        inFlight.clear();
        throw io;
    }
}
