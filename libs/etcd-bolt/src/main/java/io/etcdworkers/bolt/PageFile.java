package io.etcdworkers.bolt;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * Positional reads of whole pages from a bbolt file (no mmap: only the pages being walked are
 * in memory). Every page id must be below the meta's high-water mark, so bytes after the
 * database (such as a SHA-256 trailer) are never read.
 */
final class PageFile {
    /** Larger pages than this are taken for corruption rather than allocated. */
    static final long MAX_PAGE_BYTES = 1L << 30;

    private final FileChannel channel;
    private final Meta meta;

    PageFile(FileChannel channel, Meta meta) {
        this.channel = channel;
        this.meta = meta;
    }

    Meta meta() {
        return meta;
    }

    /**
     * Reads page {@code pgid} with its overflow pages, checking that its header carries its own
     * id and that the whole span lies below the high-water mark.
     *
     * @param what what the page is expected to be, for messages
     */
    Page read(long pgid, String what) throws IOException {
        checkPointer(pgid, what);
        int pageSize = meta.pageSize();
        ByteBuffer head = ByteBuffer.allocate(PageHeader.SIZE).order(ByteOrder.LITTLE_ENDIAN);
        readFully(head, pgid * pageSize, what + " page " + pgid);
        PageHeader header = PageHeader.read(head, 0);
        if (header.id() != pgid) {
            throw new BoltFormatException(what + " page " + pgid + ": header says it is page " + header.id());
        }
        long span = 1 + header.overflow();
        if (pgid + span > meta.highWaterMark() || span * pageSize > MAX_PAGE_BYTES) {
            throw new BoltFormatException(what + " page " + pgid + ": " + header.overflow()
                    + " overflow pages reach past the high-water mark " + meta.highWaterMark());
        }
        ByteBuffer whole = ByteBuffer.allocate((int) (span * pageSize)).order(ByteOrder.LITTLE_ENDIAN);
        readFully(whole, pgid * pageSize, what + " page " + pgid);
        whole.flip();
        return Page.of(whole, what + " page " + pgid);
    }

    /** A page a tree may point to: not a meta page, and below the high-water mark. */
    void checkPointer(long pgid, String what) throws BoltFormatException {
        if (pgid < 2 || pgid >= meta.highWaterMark()) {
            throw new BoltFormatException(what + ": page id " + Long.toUnsignedString(pgid)
                    + " is outside the pages in use [2, " + meta.highWaterMark() + ")");
        }
    }

    private void readFully(ByteBuffer buf, long position, String what) throws IOException {
        long pos = position;
        while (buf.hasRemaining()) {
            int n = channel.read(buf, pos);
            if (n < 0) {
                throw new BoltFormatException(what + ": file ends at " + pos + " (truncated)");
            }
            pos += n;
        }
    }
}
