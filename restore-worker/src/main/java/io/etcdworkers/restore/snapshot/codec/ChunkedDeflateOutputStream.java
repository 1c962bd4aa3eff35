package io.etcdworkers.restore.snapshot.codec;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.Checksum;
import java.util.zip.Deflater;

/**
 * One gzip (RFC 1952) or zlib (RFC 1950) stream, deflated in fixed chunks of the input on
 * several threads, as {@code pigz} does: each chunk is deflated on its own, primed with the last
 * 32 KiB of the chunk before it as a preset dictionary (so matches still reach back across the
 * boundary), and ends with a sync flush that byte-aligns it; the last one ends the deflate stream.
 * The chunks are written in order, so the result is a single ordinary stream that any inflater
 * reads (Go's {@code compress/gzip}, zlib, {@code gzip -d}); the checksum of the trailer is
 * computed here over the input in order.
 *
 * <p>The bytes depend on the chunk size, level and strategy only, never on the number of
 * threads: with one thread the same stream is written, inline. At most {@code 2 x threads}
 * chunks are in flight, so memory stays a few MiB whatever the size of the input.
 *
 * <p>{@link #close} finishes the stream and closes the sink, even when finishing fails; a failed
 * write leaves the stream unusable (the caller aborts the upload it was writing).
 */
final class ChunkedDeflateOutputStream extends OutputStream {
    enum Format {
        GZIP, ZLIB
    }

    static final int CHUNK_SIZE = 1 << 20;
    private static final int WINDOW = 32 * 1024;
    private static final int FIRST_BUFFER = 64 * 1024;

    private final OutputStream sink;
    private final Format format;
    private final int level;
    private final int strategy;
    private final Checksum checksum;
    private final ExecutorService pool;
    private final int maxInFlight;
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    /** Input buffers whose chunk is written: reused, so a long stream makes little garbage. */
    private final ArrayDeque<ByteBuffer> spare = new ArrayDeque<>();
    private final ThreadLocal<ByteBuffer> output = ThreadLocal.withInitial(
            () -> ByteBuffer.allocateDirect(CHUNK_SIZE + CHUNK_SIZE / 8));
    /** Starts small (most deltas a generator or a test writes are), grows to a chunk when filled. */
    private ByteBuffer chunk = ByteBuffer.allocateDirect(FIRST_BUFFER);
    private byte[] dictionary;
    private long totalIn;
    private boolean headerWritten;
    private boolean closed;
    private IOException failed;

    private record InFlight(Future<byte[]> deflated, ByteBuffer input) {}

    ChunkedDeflateOutputStream(OutputStream sink, Format format, int level, int strategy, int threads) {
        this.sink = Objects.requireNonNull(sink, "sink");
        this.format = Objects.requireNonNull(format, "format");
        if (threads < 1) {
            throw new IllegalArgumentException("threads < 1: " + threads);
        }
        this.level = level;
        this.strategy = strategy;
        this.checksum = format == Format.GZIP ? new CRC32() : new Adler32();
        this.pool = threads == 1 ? null : Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "deflate-chunk");
            t.setDaemon(true);
            return t;
        });
        this.maxInFlight = 2 * threads;
    }

    /** Threads that pay off on this machine (or container): its processors, at least one. */
    static int defaultThreads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors());
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

    /** Deflated chunks go out as they are ready; a partly filled chunk waits for more input or {@link #close}. */
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
            writeTrailer();
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

    /** Hands the current chunk to a thread (or deflates it here), then writes what is done in order. */
    private void submit(boolean last) throws IOException {
        try {
            ByteBuffer input = chunk.flip();
            int length = input.limit();
            byte[] dict = dictionary;
            checksum.update(input.duplicate());
            totalIn += length;
            dictionary = tail(dict, input);
            chunk = last ? null : spare.isEmpty() ? ByteBuffer.allocateDirect(CHUNK_SIZE) : spare.pop().clear();
            if (!headerWritten) {
                writeHeader();
                headerWritten = true;
            }
            if (pool == null) {
                sink.write(deflate(input, dict, last));
                spare.push(input);
                return;
            }
            inFlight.add(new InFlight(pool.submit(() -> deflate(input, dict, last)), input));
            while (inFlight.size() >= maxInFlight || (!inFlight.isEmpty() && inFlight.peek().deflated().isDone())) {
                writeOldest();
            }
        } catch (IOException | RuntimeException e) {
            fail(e);
        }
    }

    private void writeOldest() throws IOException {
        InFlight next = inFlight.remove();
        try {
            sink.write(next.deflated().get());
            if (!closed) {
                spare.push(next.input());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw fail(new InterruptedIOException("interrupted while deflating"));
        } catch (ExecutionException e) {
            throw fail(new IOException("deflating a chunk failed: " + e.getCause(), e.getCause()));
        }
    }

    private IOException fail(Exception e) throws IOException {
        IOException io = e instanceof IOException x ? x : new IOException(e.toString(), e);
        if (failed == null) {
            failed = io;
        }
        inFlight.forEach(f -> f.deflated().cancel(true));
        inFlight.clear();
        throw io;
    }

    /** The last {@link #WINDOW} bytes of the input so far: the latest chunk's, after {@code before}'s. */
    private static byte[] tail(byte[] before, ByteBuffer input) {
        int length = input.limit();
        int fromInput = Math.min(length, WINDOW);
        int fromBefore = before == null ? 0 : Math.min(before.length, WINDOW - fromInput);
        byte[] out = new byte[fromBefore + fromInput];
        if (fromBefore > 0) {
            System.arraycopy(before, before.length - fromBefore, out, 0, fromBefore);
        }
        input.get(length - fromInput, out, fromBefore, fromInput);
        return out;
    }

    /**
     * Deflates one chunk. Input and output are direct buffers: zlib reads and writes them in
     * place, where heap arrays would be pinned for each call (a JNI critical region, which makes
     * the collector wait and then promote the chunks in flight, growing the heap by 100 MB here).
     */
    private byte[] deflate(ByteBuffer chunkInput, byte[] dict, boolean last) {
        ByteBuffer input = chunkInput.duplicate();
        Deflater deflater = new Deflater(level, true);
        try {
            deflater.setStrategy(strategy);
            if (dict != null && dict.length > 0) {
                deflater.setDictionary(dict);
            }
            deflater.setInput(input);
            if (last) {
                deflater.finish();
            }
            // the thread's own buffer (deflate's bound for a chunk is well inside it); the result
            // is copied out at its size
            ByteBuffer out = output.get().clear();
            while (true) {
                if (!out.hasRemaining()) {
                    out = ByteBuffer.allocateDirect(out.capacity() * 2).put(out.flip());
                    output.set(out);
                }
                deflater.deflate(out, last ? Deflater.NO_FLUSH : Deflater.SYNC_FLUSH);
                if (last ? deflater.finished() : out.hasRemaining() && deflater.needsInput()) {
                    byte[] deflated = new byte[out.position()];
                    out.flip().get(deflated);
                    return deflated;
                }
            }
        } finally {
            deflater.end();
        }
    }

    private void writeHeader() throws IOException {
        if (format == Format.GZIP) {
            // magic, deflate, no flags, no mtime, extra flags (2: best compression, 4: fastest), OS unknown
            int xfl = level >= 9 ? 2 : level == 1 ? 4 : 0;
            sink.write(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, (byte) xfl, (byte) 0xff});
        } else {
            // CM 8 with a 32 KiB window, FLEVEL from the level as zlib sets it, no preset
            // dictionary for the reader (the dictionaries are the encoder's own), FCHECK
            int flevel = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
            int header = (0x78 << 8) | (flevel << 6);
            if (header % 31 != 0) {
                header += 31 - header % 31;
            }
            sink.write(new byte[] {(byte) (header >> 8), (byte) header});
        }
    }

    private void writeTrailer() throws IOException {
        long sum = checksum.getValue();
        if (format == Format.GZIP) {
            // CRC-32 and the input's length modulo 2^32, little-endian
            writeLittleEndian(sum);
            writeLittleEndian(totalIn & 0xffffffffL);
        } else {
            sink.write(new byte[] {(byte) (sum >> 24), (byte) (sum >> 16), (byte) (sum >> 8), (byte) sum});
        }
    }

    private void writeLittleEndian(long v) throws IOException {
        sink.write(new byte[] {(byte) v, (byte) (v >> 8), (byte) (v >> 16), (byte) (v >> 24)});
    }
}
