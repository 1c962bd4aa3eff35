package io.etcdworkers.format.codec;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Decompresses a gzip file member by member with libdeflate while its members are small, as the
 * ones this project writes are (one per 1 MiB of input, {@link GzipMembersOutputStream}), and
 * hands the rest of the file to {@link InflatingInputStream} at the first member that is not: one
 * larger than {@link #MEMBER_OUTPUT} (etcdbrctl writes a single member), or one that does not
 * decompress (cut short, corrupt, or not gzip), which that decoder then reads from the member's
 * first byte and reports with the same exceptions and messages as when it reads the whole file.
 *
 * <p>Memory: a window of the compressed input and one member's output, a few MiB. What a reader
 * gets is the same as from {@link InflatingInputStream}; only the speed differs (libdeflate
 * decompresses about twice as fast as the JDK's zlib).
 */
final class MemberInflatingInputStream extends BulkInputStream {
    /** The largest member output decompressed here: this project's chunk. */
    static final int MEMBER_OUTPUT = ParallelChunksOutputStream.CHUNK_SIZE;
    /** Any member of at most {@link #MEMBER_OUTPUT} bytes is shorter, even stored uncompressed. */
    private static final int WHOLE_MEMBER = MEMBER_OUTPUT + 4096;

    private static final int WINDOW = 2 * MEMBER_OUTPUT;

    private final InputStream raw;
    private final LibDeflate.Members members;
    private final ByteBuffer window = ByteBuffer.allocateDirect(WINDOW).flip();
    private final ByteBuffer output = ByteBuffer.allocateDirect(MEMBER_OUTPUT).flip();
    private final byte[] transfer = new byte[64 * 1024];
    private InputStream rest;
    private int decoded;
    /** Input bytes before the window's position. */
    private long consumed;

    private boolean rawEnded;

    MemberInflatingInputStream(InputStream raw, LibDeflate lib) {
        this.raw = Objects.requireNonNull(raw, "raw");
        this.members = lib.members();
    }

    @Override
    protected int readSome(byte[] b, int off, int len) throws IOException {
        while (rest == null && !output.hasRemaining()) {
            if (window.remaining() < WHOLE_MEMBER) {
                fillWindow();
            }
            if (!window.hasRemaining() && rawEnded && decoded > 0) {
                return -1;
            }
            int before = window.position();
            if (members.next(window, output)) {
                decoded++;
                consumed += window.position() - before;
            } else {
                handOver();
            }
        }
        if (rest != null) {
            return rest.read(b, off, len);
        }
        int n = Math.min(len, output.remaining());
        output.get(b, off, n);
        return n;
    }

    /** Tops the window up from the raw input (as far as it goes), keeping the bytes not yet used. */
    private void fillWindow() throws IOException {
        window.compact();
        try {
            while (window.hasRemaining() && !rawEnded) {
                int n = raw.read(transfer, 0, Math.min(transfer.length, window.remaining()));
                if (n < 0) {
                    rawEnded = true;
                } else {
                    window.put(transfer, 0, n);
                }
            }
        } finally {
            window.flip();
        }
    }

    /** The rest of the file, from the member libdeflate did not take, to the JDK's decoder. */
    private void handOver() {
        byte[] pending = new byte[window.remaining()];
        window.get(pending);
        members.close();
        rest = InflatingInputStream.gzipAfter(
                new SequenceInputStream(new ByteArrayInputStream(pending), raw), decoded, consumed);
    }

    @Override
    public void close() throws IOException {
        if (markClosed()) {
            members.close();
            if (rest != null) {
                rest.close();
            } else {
                raw.close();
            }
        }
    }
}
