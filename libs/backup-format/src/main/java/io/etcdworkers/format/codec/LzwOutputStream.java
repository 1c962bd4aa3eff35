package io.etcdworkers.format.codec;

import static io.etcdworkers.format.codec.LzwInputStream.CLEAR_CODE;
import static io.etcdworkers.format.codec.LzwInputStream.EOF_CODE;
import static io.etcdworkers.format.codec.LzwInputStream.MAX_WIDTH;
import static io.etcdworkers.format.codec.LzwInputStream.MIN_WIDTH;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * Compresses to the {@code .Z} format of etcd-backup-restore: Go's {@code compress/lzw} with LSB
 * bit order and 8-bit literals (see {@link LzwInputStream} for the format).
 *
 * <p>The output is byte for byte what Go's {@code lzw.NewWriter(w, lzw.LSB, 8)} writes for the
 * same bytes, however the input is split into {@code write} calls:
 * <ul>
 *   <li>a clear code first, even for empty input (Go follows the GIF spec's advice here; older
 *       Go releases did not, and the etcdbrctl v0.23.0 objects have it);</li>
 *   <li>greedy longest-match LZW; the dictionary is never frozen: as soon as code 4094 has been
 *       defined, the next code emitted is followed by a clear code (written 12 bits wide) and the
 *       dictionary starts over, so code 4095 is never used;</li>
 *   <li>on {@link #close()}: the pending code, the EOF code, then the last partial byte padded
 *       with zero bits.</li>
 * </ul>
 * Memory is bounded (about 110 KiB). {@link #close()} finishes the stream and closes the sink;
 * nothing is complete before it. Not thread-safe.
 */
public final class LzwOutputStream extends OutputStream {
    /** Go's writer clears once this code would be the next one defined, leaving it unused. */
    private static final int LAST_CODE = (1 << MAX_WIDTH) - 1;
    /** Open addressing table for at most ~3840 live entries: load stays below one half. */
    private static final int SLOT_BITS = 13;

    private static final int SLOT_MASK = (1 << SLOT_BITS) - 1;

    private final OutputStream sink;
    private final byte[] buf = new byte[1 << 16];
    private int bufLen;

    private int bits;
    private int nBits;
    private int width = MIN_WIDTH;
    /** The code most recently defined, or about to be (Go's {@code hi}). */
    private int hi = EOF_CODE;

    /** The code of the longest match so far, or -1 before the first byte. */
    private int pending = -1;

    // Dictionary: key (prefix code << 8 | next byte) + 1, so that 0 marks a free slot.
    private final int[] keys = new int[1 << SLOT_BITS];
    private final char[] values = new char[1 << SLOT_BITS];

    private final byte[] single = new byte[1];
    private boolean closed;

    public LzwOutputStream(OutputStream sink) {
        this.sink = Objects.requireNonNull(sink, "sink");
    }

    @Override
    public void write(int b) throws IOException {
        single[0] = (byte) b;
        write(single, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        if (len == 0) {
            return;
        }
        int end = off + len;
        int i = off;
        int code = pending;
        if (code < 0) {
            emit(CLEAR_CODE);
            code = b[i++] & 0xff;
        }
        final int[] keys = this.keys;
        for (; i < end; i++) {
            int literal = b[i] & 0xff;
            int key = (code << 8 | literal) + 1;
            int slot = (key * 0x9E3779B1) >>> (32 - SLOT_BITS);
            int k;
            while ((k = keys[slot]) != 0 && k != key) {
                slot = (slot + 1) & SLOT_MASK;
            }
            if (k == key) {
                code = values[slot];
                continue;
            }
            emit(code);
            code = literal;
            if (nextCode()) {
                keys[slot] = key;
                values[slot] = (char) hi;
            }
        }
        pending = code;
    }

    /** Writes the complete bytes so far to the sink; the stream stays open and unfinished. */
    @Override
    public void flush() throws IOException {
        ensureOpen();
        drain();
        sink.flush();
    }

    /** Finishes the stream (see the class comment) and closes the sink, even if finishing fails. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (OutputStream s = sink) {
            if (pending >= 0) {
                emit(pending);
                nextCode();
            } else {
                emit(CLEAR_CODE);
            }
            emit(EOF_CODE);
            if (nBits > 0) {
                put(bits);
            }
            drain();
        }
    }

    /**
     * Takes the next code for the dictionary and widens the codes when it needs more bits.
     * Returns false when the dictionary was full and has been cleared instead.
     */
    private boolean nextCode() throws IOException {
        hi++;
        if (hi == 1 << width) {
            width++;
        }
        if (hi == LAST_CODE) {
            emit(CLEAR_CODE);
            width = MIN_WIDTH;
            hi = EOF_CODE;
            Arrays.fill(keys, 0);
            return false;
        }
        return true;
    }

    private void emit(int code) throws IOException {
        bits |= code << nBits;
        nBits += width;
        while (nBits >= 8) {
            put(bits);
            bits >>>= 8;
            nBits -= 8;
        }
    }

    private void put(int b) throws IOException {
        if (bufLen == buf.length) {
            drain();
        }
        buf[bufLen++] = (byte) b;
    }

    private void drain() throws IOException {
        if (bufLen > 0) {
            sink.write(buf, 0, bufLen);
            bufLen = 0;
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("Stream closed");
        }
    }
}
