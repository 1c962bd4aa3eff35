package io.etcdworkers.format.codec;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.Checksum;
import java.util.zip.Deflater;

/**
 * One gzip (RFC 1952) or zlib (RFC 1950) stream, deflated by the JDK's zlib in fixed chunks of the
 * input on several threads, as {@code pigz} does: each chunk is deflated on its own, primed with
 * the last 32 KiB of the chunk before it as a preset dictionary (so matches still reach back
 * across the boundary), and ends with a sync flush that byte-aligns it; the last one ends the
 * deflate stream. The chunks are written in order ({@link ParallelChunksOutputStream}), so the
 * result is a single ordinary stream that any inflater reads (Go's {@code compress/gzip} and
 * {@code compress/zlib}, zlib, {@code gzip -d}); the checksum of the trailer is computed here over
 * the input in order. The bytes depend on the chunk size, level and strategy only.
 */
final class ChunkedDeflateOutputStream extends ParallelChunksOutputStream {
    enum Format {
        GZIP,
        ZLIB
    }

    static final int CHUNK_SIZE = ParallelChunksOutputStream.CHUNK_SIZE;
    private static final int WINDOW = 32 * 1024;

    private final Format format;
    private final int level;
    private final int strategy;
    private final Checksum checksum;
    private byte[] dictionary;
    private long totalIn;

    ChunkedDeflateOutputStream(OutputStream sink, Format format, int level, int strategy, int threads) {
        super(sink, threads, 0, "deflate-chunk");
        this.format = Objects.requireNonNull(format, "format");
        this.level = level;
        this.strategy = strategy;
        this.checksum = format == Format.GZIP ? new CRC32() : new Adler32();
    }

    @Override
    protected void begin(boolean whole, OutputStream sink) throws IOException {
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

    @Override
    protected Callable<byte[]> encoder(ByteBuffer input, boolean last) {
        byte[] dict = dictionary;
        checksum.update(input.duplicate());
        totalIn += input.limit();
        dictionary = tail(dict, input);
        return () -> deflate(input, dict, last);
    }

    @Override
    protected void end(OutputStream sink) throws IOException {
        long sum = checksum.getValue();
        if (format == Format.GZIP) {
            // CRC-32 and the input's length modulo 2^32, little-endian
            writeLittleEndian(sink, sum);
            writeLittleEndian(sink, totalIn & 0xffffffffL);
        } else {
            sink.write(new byte[] {(byte) (sum >> 24), (byte) (sum >> 16), (byte) (sum >> 8), (byte) sum});
        }
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

    /** Deflates one chunk from its direct buffer into the thread's own (zlib works on both in place). */
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
            // deflate's bound for a chunk is well inside this; the result is copied out at its size
            ByteBuffer out = outputBuffer(CHUNK_SIZE + CHUNK_SIZE / 8);
            while (true) {
                if (!out.hasRemaining()) {
                    out = outputBuffer(out.capacity() * 2).put(out.flip());
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

    private static void writeLittleEndian(OutputStream sink, long v) throws IOException {
        sink.write(new byte[] {(byte) v, (byte) (v >> 8), (byte) (v >> 16), (byte) (v >> 24)});
    }
}
