package io.etcdworkers.format.codec;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decompresses objects small enough to hold whole, the deltas of one restore: a gzip one is read
 * into memory and decompressed by libdeflate in one call, which took a 300,000-event restore's
 * fold about 0.4 s sooner on two cores than the JDK's zlib streaming through it (docs/benchmarks.md).
 * etcd-backup-restore writes each delta as one gzip member of what it buffered, at most its delta
 * memory limit (100 MB by default).
 *
 * <p>A reader gets what {@link Compression#decompress} gives for the same input: whenever the
 * object is not exactly one member whose content is as long as its trailer says (several members,
 * bytes after the member, damage, a read of the input that failed or delivered more or less than
 * listed, content larger than {@link #MAX_OUTPUT}), the bytes read so far and what follows them go
 * to that decoder from the first byte, which reports them with its exceptions and messages. Other
 * codecs, and gzip without libdeflate, stream through {@link Compression#decompress} as before.
 *
 * <p>Memory, native and mapped for itself ({@link MappedBuffer}): the compressed bytes (at most
 * {@link #MAX_INPUT}; a larger object streams) until they are decompressed, then the content (at
 * most {@link #MAX_OUTPUT}) until the reader closes its stream. The contents held at once stay
 * within {@link #CONTENT_BUDGET} (one larger than the budget is held alone): a caller whose content
 * does not fit waits, after its download, for readers to close. So the whole reads hold at most
 * that budget plus one object per caller (the fetch threads), however large the deltas or many the
 * cores. The buffers are reused from one object to the next and given back by {@link #close()}.
 */
public final class WholeReads implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WholeReads.class);
    /** The largest object read whole: 16 MiB (the 300,000-event benchmark's deltas are 7 MB). */
    static final long MAX_INPUT = 16L << 20;
    /** The largest content decompressed at once: 64 MiB. */
    static final long MAX_OUTPUT = 64L << 20;
    /** The smallest gzip member: a 10-byte header, an empty deflate block, an 8-byte trailer. */
    private static final long MIN_MEMBER = 20;
    /** Bytes of content held at once: 64 MiB, six of the 300,000-event benchmark's deltas. */
    static final long CONTENT_BUDGET = 64L << 20;

    private static final int TRANSFER = 64 * 1024;

    private final Optional<LibDeflate> lib;
    /** The content budget, in KiB. */
    private final Semaphore held;

    private final int budgetKib;
    private final BufferPool buffers = new BufferPool();
    private volatile boolean mapFailureLogged;

    /** Reads with the system's libdeflate when it is loaded, else streaming. */
    public WholeReads() {
        this(LibDeflate.get(), CONTENT_BUDGET);
    }

    WholeReads(Optional<LibDeflate> lib, long contentBudget) {
        this.lib = lib;
        this.budgetKib = (int) Math.max(1, contentBudget >> 10);
        this.held = new Semaphore(budgetKib);
    }

    /**
     * The content of {@code raw}, compressed with {@code codec}, which the store listed at {@code
     * listedBytes}. A gzip object read whole is read to its end before this returns, and closing
     * the result then does not close {@code raw}: its caller closes it.
     *
     * @throws InterruptedException while waiting for another reader to close its content
     */
    public InputStream decompress(Compression codec, InputStream raw, long listedBytes) throws InterruptedException {
        Objects.requireNonNull(raw, "raw");
        if (codec != Compression.GZIP || lib.isEmpty() || listedBytes < MIN_MEMBER || listedBytes > MAX_INPUT) {
            return codec.decompress(raw);
        }
        MappedBuffer input = tryTake(listedBytes);
        if (input == null) {
            return codec.decompress(raw);
        }
        long length = 0;
        InputStream rest = raw;
        try {
            byte[] transfer = new byte[TRANSFER];
            int n = 0;
            while (length < listedBytes
                    && (n = raw.read(transfer, 0, (int) Math.min(TRANSFER, listedBytes - length))) >= 0) {
                input.pointer().write(length, transfer, 0, n);
                length += n;
            }
            int extra = n < 0 ? -1 : raw.read();
            if (extra >= 0) {
                // more than listed: the decoder sees it all, as it would have
                rest = new SequenceInputStream(new ByteArrayInputStream(new byte[] {(byte) extra}), raw);
            } else if (n >= 0) {
                InputStream content = decompress(input, length, lib.get());
                if (content != null) {
                    return content;
                }
            }
        } catch (IOException e) {
            rest = new Failed(e); // the decoder gets the same failure after the same bytes
        } catch (InterruptedException | RuntimeException | Error e) {
            buffers.give(input);
            throw e;
        }
        return Compression.GZIP.decompress(new SequenceInputStream(new PooledBytes(input, length, null), rest));
    }

    /** The content when {@code input} is exactly one member within the limits, with the input given back; else null. */
    private InputStream decompress(MappedBuffer input, long length, LibDeflate lib) throws InterruptedException {
        long declared = 0; // the trailer's ISIZE: the content's length modulo 2^32, little-endian
        for (int i = 1; i <= 4; i++) {
            declared = declared << 8 | input.pointer().getByte(length - i) & 0xff;
        }
        if (declared > MAX_OUTPUT) {
            return null;
        }
        int units = (int) Math.min(budgetKib, Math.max(1, (declared + 1023) >> 10));
        held.acquire(units);
        MappedBuffer output = null;
        boolean handedOut = false;
        try {
            output = tryTake(Math.max(1, declared));
            if (output != null && oneMember(lib, input, length, output, declared)) {
                InputStream content = new PooledBytes(output, declared, () -> held.release(units));
                handedOut = true;
                buffers.give(input); // last: the caller gives it back itself when this throws
                return content;
            }
            return null;
        } finally {
            if (!handedOut) {
                if (output != null) {
                    buffers.give(output);
                }
                held.release(units);
            }
        }
    }

    /**
     * Whether the {@code length} bytes of {@code input} are exactly one gzip member whose content,
     * now in {@code output}, is exactly {@code declared} bytes long (its CRC-32 and length checked).
     */
    private static boolean oneMember(
            LibDeflate lib, MappedBuffer input, long length, MappedBuffer output, long declared) {
        ByteBuffer in = input.pointer().getByteBuffer(0, length);
        ByteBuffer out = output.pointer().getByteBuffer(0, declared);
        try (LibDeflate.Members members = lib.members()) {
            return members.next(in, out) && !in.hasRemaining() && out.remaining() == declared;
        }
    }

    /** A buffer of at least {@code bytes}, or null when the kernel has no memory to map (the object then streams). */
    private MappedBuffer tryTake(long bytes) {
        try {
            return buffers.take(bytes);
        } catch (OutOfMemoryError | LinkageError e) {
            if (!mapFailureLogged) {
                mapFailureLogged = true;
                LOG.warn("cannot map {} bytes to read a delta whole, streaming it instead: {}", bytes, e.toString());
            }
            return null;
        }
    }

    /** KiB of content that could be held now without waiting (tests watch the accounting). */
    int availableBudgetKib() {
        return held.availablePermits();
    }

    /** Buffers kept for reuse (tests watch the accounting). */
    int pooledBuffers() {
        return buffers.freeCount();
    }

    /** Unmaps the buffers kept for reuse; one still being read is unmapped when its reader closes. */
    @Override
    public void close() {
        buffers.close();
    }

    /** Reads a pooled buffer, which it gives back (and runs {@code onRelease}) when closed or read to the end. */
    private final class PooledBytes extends BulkInputStream {
        private MappedBuffer buffer;
        private final long length;
        private final Runnable onRelease;
        private long position;

        PooledBytes(MappedBuffer buffer, long length, Runnable onRelease) {
            this.buffer = buffer;
            this.length = length;
            this.onRelease = onRelease;
        }

        @Override
        protected int readSome(byte[] b, int off, int len) {
            if (position >= length) {
                release();
                return -1;
            }
            int n = (int) Math.min(len, length - position);
            buffer.pointer().read(position, b, off, n);
            position += n;
            return n;
        }

        @Override
        public void close() {
            if (markClosed()) {
                release();
            }
        }

        private void release() {
            if (buffer != null) {
                buffers.give(buffer);
                buffer = null;
                if (onRelease != null) {
                    onRelease.run();
                }
            }
        }
    }

    /** A stream whose first read throws what the original input threw. */
    private static final class Failed extends InputStream {
        private final IOException failure;

        Failed(IOException failure) {
            this.failure = failure;
        }

        @Override
        public int read() throws IOException {
            throw failure;
        }
    }
}
