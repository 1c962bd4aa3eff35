package io.etcdworkers.format.codec;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * A gzip file (RFC 1952) written as one member per 1 MiB chunk of the input, each compressed by
 * libdeflate on one of several threads ({@link ParallelChunksOutputStream}) and written in order.
 * A gzip file may hold any number of members, one after the other, which a reader decompresses
 * as one stream: Go's {@code compress/gzip} (etcdbrctl's reader) does by default, as do {@code
 * gzip -d}, the JDK's {@code GZIPInputStream} and {@link InflatingInputStream}. Each member
 * carries its own CRC-32 and length; the bytes depend on the input and the levels only.
 *
 * <p>Levels: an input of at most {@link #SMALL_INPUT} bytes is compressed at {@link #SMALL_LEVEL},
 * libdeflate's densest (about 70 ms of CPU per MiB, so at most a few tenths of a second); a larger
 * one at {@link #LEVEL}, about ten times faster, where compressing is most of a large compaction's
 * tail. On etcd databases of 100-450 MB level 6 wrote 0-2 % less than etcdbrctl's Go writer, on
 * the fixtures' small databases (0.5-1.4 MB) 1-3 % more, which level 12 turns into 3-4 % less
 * (docs/benchmarks.md).
 */
final class GzipMembersOutputStream extends ParallelChunksOutputStream {
    static final int LEVEL = 6;
    static final int SMALL_LEVEL = 12;
    /** Chunks looked at before choosing: an input of at most this many chunks is small. */
    private static final int SMALL_CHUNKS = 4;

    static final long SMALL_INPUT = (long) SMALL_CHUNKS * CHUNK_SIZE;

    private static final byte[] NOTHING = new byte[0];

    private final LibDeflate lib;
    private int level;
    private boolean anyMember;

    GzipMembersOutputStream(OutputStream sink, LibDeflate lib, int threads) {
        super(sink, threads, SMALL_CHUNKS - 1, "gzip-member");
        this.lib = Objects.requireNonNull(lib, "lib");
    }

    @Override
    protected void begin(boolean whole, OutputStream sink) {
        level = whole ? SMALL_LEVEL : LEVEL;
    }

    @Override
    protected Callable<byte[]> encoder(ByteBuffer input, boolean last) {
        if (!input.hasRemaining() && anyMember) {
            // the input ended on a chunk's boundary: the members written hold all of it
            return () -> NOTHING;
        }
        anyMember = true;
        int chunkLevel = level;
        return () -> lib.gzip(chunkLevel, input.duplicate(), this::outputBuffer);
    }

    @Override
    protected void end(OutputStream sink) {
        // every member ends with its own trailer
    }
}
