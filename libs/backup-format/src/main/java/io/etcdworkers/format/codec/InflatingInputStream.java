package io.etcdworkers.format.codec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decompresses gzip (RFC 1952, any number of members, as Go's reader) or zlib (RFC 1950) with
 * the JDK's {@link Inflater}, failing with {@link CorruptStreamException} or
 * {@link TruncatedStreamException} only.
 *
 * <p>Why not {@code GZIPInputStream}/{@code InflaterInputStream}: after the last gzip member,
 * {@code GZIPInputStream} silently drops bytes that do not form another member, and whether it
 * even looks for one depends on {@code available()}; {@code InflaterInputStream} stops at the
 * end of the zlib stream and never looks at what follows. Here the framing is read by hand, so
 * the end is exact: -1 only when the input ends right after the last member (gzip) or the
 * Adler-32 trailer (zlib); anything else after it is corrupt, and any earlier end is truncated.
 */
final class InflatingInputStream extends BulkInputStream {
    private static final int FHCRC = 0x02;
    private static final int FEXTRA = 0x04;
    private static final int FNAME = 0x08;
    private static final int FCOMMENT = 0x10;

    private final InputStream in;
    private final boolean gzip;
    private final String codec;
    private final Inflater inflater;
    private final CRC32 crc = new CRC32();

    // Input bytes buf[pos, lim) are read from `in` but not yet used; `consumed` counts the
    // bytes before buf[0], for error messages.
    private final byte[] buf = new byte[1 << 16];
    // zlib reads and writes these in place; heap arrays would be pinned for each inflate call (a
    // JNI critical region), holding collections off until it returns (56-74 GC-locker initiated
    // collections per 300,000-event restore before; none now)
    private final ByteBuffer input = ByteBuffer.allocateDirect(1 << 16);
    private final ByteBuffer output = ByteBuffer.allocateDirect(1 << 16);
    private int pos;
    private int lim;
    private long consumed;

    private int members;
    private boolean headerPending;
    private boolean ended;
    private IOException failure;

    private InflatingInputStream(InputStream in, boolean gzip) {
        this.in = Objects.requireNonNull(in, "in");
        this.gzip = gzip;
        this.codec = gzip ? "gzip" : "zlib";
        this.inflater = new Inflater(gzip);
        this.headerPending = gzip;
    }

    static InflatingInputStream gzip(InputStream in) {
        return new InflatingInputStream(in, true);
    }

    /**
     * The rest of a gzip file whose first {@code membersBefore} members, {@code bytesBefore}
     * bytes of it, were read by another decoder: {@code in} starts at the next member, and the
     * errors count members and bytes from the file's start.
     */
    static InflatingInputStream gzipAfter(InputStream in, int membersBefore, long bytesBefore) {
        InflatingInputStream rest = new InflatingInputStream(in, true);
        rest.members = membersBefore;
        rest.consumed = bytesBefore;
        return rest;
    }

    static InflatingInputStream zlib(InputStream in) {
        return new InflatingInputStream(in, false);
    }

    @Override
    protected int readSome(byte[] b, int off, int len) throws IOException {
        if (failure != null) {
            throw failure;
        }
        if (ended) {
            return -1;
        }
        try {
            return inflate(b, off, len);
        } catch (CorruptStreamException | TruncatedStreamException e) {
            failure = e;
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        if (markClosed()) {
            inflater.end();
            in.close();
        }
    }

    private int inflate(byte[] b, int off, int len) throws IOException {
        while (true) {
            if (headerPending) {
                readGzipHeader();
                headerPending = false;
            }
            int n;
            try {
                output.clear().limit(Math.min(len, output.capacity()));
                n = inflater.inflate(output);
                output.flip().get(b, off, n);
            } catch (DataFormatException e) {
                throw corrupt("invalid compressed data (" + e.getMessage() + ")");
            }
            pos = lim - inflater.getRemaining();
            if (n > 0) {
                if (gzip) {
                    crc.update(b, off, n);
                }
                return n;
            }
            if (inflater.finished()) {
                endOfStream();
                if (ended) {
                    return -1;
                }
            } else if (inflater.needsDictionary()) {
                throw corrupt("preset dictionary required, which etcd-backup-restore never uses");
            } else if (inflater.needsInput()) {
                if (!fill()) {
                    throw truncated("inside the compressed data");
                }
                setInput();
            }
        }
    }

    /** Hands buf[pos, lim) to the inflater. */
    private void setInput() {
        input.clear().put(buf, pos, lim - pos).flip();
        inflater.setInput(input);
    }

    /** After a zlib stream or a gzip member: checks what follows. */
    private void endOfStream() throws IOException {
        if (gzip) {
            long expectedCrc = readLittleEndianInt("trailer");
            long expectedSize = readLittleEndianInt("trailer");
            if (expectedCrc != crc.getValue()) {
                throw corrupt("CRC-32 mismatch in member " + members);
            }
            if (expectedSize != (inflater.getBytesWritten() & 0xffffffffL)) {
                throw corrupt("length mismatch in member " + members);
            }
        }
        if (!fill()) {
            ended = true;
        } else if (gzip) {
            // Another member may follow (concatenated gzip files are one gzip file).
            headerPending = true;
            inflater.reset();
            crc.reset();
        } else {
            throw corrupt("data after the end of the zlib stream");
        }
    }

    private void readGzipHeader() throws IOException {
        CRC32 headerCrc = new CRC32();
        // Byte by byte: a lone 0x00 after the last member is garbage, not a member cut short.
        if (headerByte(headerCrc) != 0x1f || headerByte(headerCrc) != 0x8b) {
            throw corrupt(members == 0 ? "no gzip magic number at the start" : "data after the end of the gzip stream");
        }
        members++;
        if (headerByte(headerCrc) != 8) {
            throw corrupt("compression method is not deflate");
        }
        int flags = headerByte(headerCrc);
        for (int i = 0; i < 6; i++) {
            headerByte(headerCrc); // MTIME, XFL, OS: not needed
        }
        if ((flags & FEXTRA) != 0) {
            int length = headerByte(headerCrc) | headerByte(headerCrc) << 8;
            for (int i = 0; i < length; i++) {
                headerByte(headerCrc);
            }
        }
        if ((flags & FNAME) != 0) {
            while (headerByte(headerCrc) != 0) {
                // skip the file name
            }
        }
        if ((flags & FCOMMENT) != 0) {
            while (headerByte(headerCrc) != 0) {
                // skip the comment
            }
        }
        if ((flags & FHCRC) != 0) {
            int expected = (int) (headerCrc.getValue() & 0xffff);
            if ((headerByte(headerCrc) | headerByte(headerCrc) << 8) != expected) {
                throw corrupt("header CRC mismatch in member " + members);
            }
        }
        setInput();
    }

    private int headerByte(CRC32 headerCrc) throws IOException {
        int b = nextByte("header");
        headerCrc.update(b);
        return b;
    }

    private long readLittleEndianInt(String part) throws IOException {
        long value = 0;
        for (int i = 0; i < 4; i++) {
            value |= (long) nextByte(part) << (8 * i);
        }
        return value;
    }

    private int nextByte(String part) throws IOException {
        if (!fill()) {
            throw truncated("inside the " + part);
        }
        return buf[pos++] & 0xff;
    }

    /** Makes sure buf[pos, lim) is not empty; false at the end of the input. */
    private boolean fill() throws IOException {
        if (pos < lim) {
            return true;
        }
        consumed += lim;
        pos = 0;
        lim = 0;
        int n;
        do {
            n = in.read(buf, 0, buf.length);
        } while (n == 0);
        if (n < 0) {
            return false;
        }
        lim = n;
        return true;
    }

    private CorruptStreamException corrupt(String what) {
        return new CorruptStreamException(codec + ": " + what + " (at input byte " + (consumed + pos) + ")");
    }

    private TruncatedStreamException truncated(String where) {
        return new TruncatedStreamException(
                codec + ": stream ends " + where + ", after " + (consumed + lim) + " bytes");
    }
}
