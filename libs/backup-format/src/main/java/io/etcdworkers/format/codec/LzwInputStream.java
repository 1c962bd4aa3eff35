package io.etcdworkers.format.codec;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * Decompresses the {@code .Z} objects of etcd-backup-restore: Go's {@code compress/lzw} with
 * LSB bit order and 8-bit literals, as read by {@code lzw.NewReader(r, lzw.LSB, 8)}.
 *
 * <p>The format is GIF-style variable-width LZW without any framing: codes 0-255 are literals,
 * 256 clears the dictionary, 257 ends the stream, new codes start at 258; codes are 9 bits wide
 * at first and grow by one bit whenever the next code to be defined needs it, up to 12 bits.
 * When all 4096 codes are defined the dictionary stays frozen until a clear code.
 *
 * <p>Contract:
 * <ul>
 *   <li>Streams with bounded memory (about 150 KiB) whatever the input size.</li>
 *   <li>{@code read} returns -1 only after the EOF code, and only if the underlying stream ends
 *       with the byte that holds it.</li>
 *   <li>Input that ends before the EOF code: {@link TruncatedStreamException} (Go: {@code
 *       io.ErrUnexpectedEOF}).</li>
 *   <li>A code that is not defined yet: {@link CorruptStreamException} (Go: {@code "lzw:
 *       invalid code"}). Bytes after the EOF code are corrupt too; Go ignores them, but no writer
 *       produces them, so they mean the object is not what etcd-backup-restore wrote.</li>
 *   <li>As in Go, bytes decoded before a failure are handed out first; the failure is thrown
 *       by the next read and by every read after it.</li>
 * </ul>
 * Not thread-safe. {@link #close()} closes the underlying stream.
 */
public final class LzwInputStream extends InputStream {
    static final int CLEAR_CODE = 256;
    static final int EOF_CODE = 257;
    static final int MIN_WIDTH = 9;
    static final int MAX_WIDTH = 12;
    private static final int CODES = 1 << MAX_WIDTH;

    private final InputStream in;
    private final byte[] inBuf = new byte[1 << 16];
    private int inPos;
    private int inLim;
    /** Stream offset of {@code inBuf[0]}, for error messages. */
    private long inBase;

    /** Bits read from the input but not yet used, least significant first. */
    private int bits;

    private int nBits;

    private int width = MIN_WIDTH;
    /** The code the next code read will define (Go's {@code hi}); always below 1 << width. */
    private int hi = EOF_CODE;
    /** The previous code, or -1 after a clear code or while the dictionary is full. */
    private int last = -1;

    // Dictionary, one slot per code. Besides Go's prefix/suffix pair we keep each code's first
    // byte and length: that makes the "code == hi" case O(1) and lets a code's expansion be
    // written right to left straight into place, without Go's copy through a scratch area.
    private final char[] prefix = new char[CODES];
    private final byte[] suffix = new byte[CODES];
    private final byte[] first = new byte[CODES];
    private final char[] length = new char[CODES];

    // Decoded bytes waiting to be read. One code expands to fewer than CODES bytes, so decoding
    // stops while at least that much room is left.
    private final byte[] out = new byte[1 << 16];
    private int outPos;
    private int outLim;

    private IOException failure;
    private boolean ended;
    private boolean closed;

    public LzwInputStream(InputStream in) {
        this.in = Objects.requireNonNull(in, "in");
        for (int c = 0; c < CLEAR_CODE; c++) {
            first[c] = (byte) c;
            length[c] = 1;
        }
    }

    @Override
    public int read() throws IOException {
        if (!fillOutput()) {
            return -1;
        }
        return out[outPos++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            ensureOpen();
            return 0;
        }
        if (!fillOutput()) {
            return -1;
        }
        int n = Math.min(len, outLim - outPos);
        System.arraycopy(out, outPos, b, off, n);
        outPos += n;
        return n;
    }

    @Override
    public int available() throws IOException {
        ensureOpen();
        return outLim - outPos;
    }

    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            in.close();
        }
    }

    /** Makes decoded bytes available; false at the regular end of the stream. */
    private boolean fillOutput() throws IOException {
        ensureOpen();
        while (outPos == outLim) {
            if (failure != null) {
                throw failure;
            }
            if (ended) {
                return false;
            }
            decode();
        }
        return true;
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("Stream closed");
        }
    }

    /**
     * Decodes codes into {@link #out} until it is nearly full, the EOF code, or a failure.
     * The hot state lives in locals while the loop runs: this is the codec's inner loop.
     */
    private void decode() throws IOException {
        final byte[] out = this.out;
        final byte[] inBuf = this.inBuf;
        final char[] prefix = this.prefix;
        final byte[] suffix = this.suffix;
        final int limit = out.length - CODES;
        int bits = this.bits;
        int nBits = this.nBits;
        int width = this.width;
        int hi = this.hi;
        int last = this.last;
        int inPos = this.inPos;
        int o = 0;
        while (o <= limit) {
            while (nBits < width) {
                if (inPos == inLim) {
                    if (!refill()) {
                        failure = new TruncatedStreamException(
                                "lzw: stream ends before its EOF code, after " + inBase + " bytes");
                        inPos = this.inPos;
                        break;
                    }
                    inPos = 0;
                }
                bits |= (inBuf[inPos++] & 0xff) << nBits;
                nBits += 8;
            }
            if (failure != null) {
                break;
            }
            int code = bits & ((1 << width) - 1);
            bits >>>= width;
            nBits -= width;
            if (code < CLEAR_CODE) {
                out[o++] = (byte) code;
                if (last >= 0) {
                    define(hi, last, (byte) code);
                }
            } else if (code == CLEAR_CODE) {
                width = MIN_WIDTH;
                hi = EOF_CODE;
                last = -1;
                continue;
            } else if (code == EOF_CODE) {
                ended = true;
                this.inPos = inPos;
                checkNothingFollows();
                break;
            } else if (code <= hi) {
                boolean fresh = last >= 0;
                if (code == hi && fresh) {
                    // KwKwK: the code being defined is used at once; it is the previous
                    // expansion followed by that expansion's first byte.
                    define(hi, last, first[last]);
                    fresh = false;
                }
                int len = length[code];
                int p = o + len - 1;
                int c = code;
                while (c > EOF_CODE) {
                    out[p--] = suffix[c];
                    c = prefix[c];
                }
                out[p] = (byte) c;
                o += len;
                if (fresh) {
                    define(hi, last, (byte) c);
                }
            } else {
                failure = new CorruptStreamException("lzw: invalid code " + code + " at input byte " + (inBase + inPos)
                        + ": only codes up to " + hi + " are defined");
                break;
            }
            last = code;
            if (++hi == 1 << width) {
                if (width == MAX_WIDTH) {
                    // Dictionary full: Go keeps it frozen (no more definitions) until a clear.
                    hi--;
                    last = -1;
                } else {
                    width++;
                }
            }
        }
        this.bits = bits;
        this.nBits = nBits;
        this.width = width;
        this.hi = hi;
        this.last = last;
        this.inPos = inPos;
        this.outPos = 0;
        this.outLim = o;
    }

    private void define(int code, int prefixCode, byte lastByte) {
        prefix[code] = (char) prefixCode;
        suffix[code] = lastByte;
        first[code] = first[prefixCode];
        length[code] = (char) (length[prefixCode] + 1);
    }

    /** Reads the next chunk of input into {@link #inBuf}; false at the end of the input. */
    private boolean refill() throws IOException {
        inBase += inLim;
        inPos = 0;
        inLim = 0;
        int n;
        do {
            n = in.read(inBuf, 0, inBuf.length);
        } while (n == 0);
        if (n < 0) {
            return false;
        }
        inLim = n;
        return true;
    }

    /** The EOF code must be in the last byte: the padding bits after it are not checked (Go's). */
    private void checkNothingFollows() throws IOException {
        if (inPos < inLim || refill()) {
            failure = new CorruptStreamException(
                    "lzw: data after the end of the stream (its EOF code) at input byte " + (inBase + inPos));
        }
    }
}
