package io.etcdworkers.bolt;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Appends pages to the file in page-id order through a 1 MiB buffer; each page gets the next
 * free id, written into its header.
 */
final class PageSink {
    private static final int BUFFER_BYTES = 1 << 20;

    private final FileChannel channel;
    private final int pageSize;
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
    private long next;
    private long bufferedFrom;

    PageSink(FileChannel channel, int pageSize, long firstPgid) {
        this.channel = channel;
        this.pageSize = pageSize;
        this.next = firstPgid;
        this.bufferedFrom = firstPgid;
    }

    /** The id the next page gets: also the number of pages so far. */
    long nextPgid() {
        return next;
    }

    /** Writes a padded page (header id set here) and returns its id. */
    long append(ByteBuffer page) throws IOException {
        long pgid = next;
        page.putLong(0, pgid);
        ByteBuffer bytes = page.duplicate().clear();
        if (bytes.remaining() > buffer.remaining()) {
            flush();
        }
        if (bytes.remaining() > buffer.capacity()) {
            write(channel, bytes, pgid * pageSize);
            bufferedFrom = pgid + bytes.capacity() / pageSize;
        } else {
            buffer.put(bytes);
        }
        next += page.capacity() / pageSize;
        return pgid;
    }

    void flush() throws IOException {
        buffer.flip();
        write(channel, buffer, bufferedFrom * pageSize);
        buffer.clear();
        bufferedFrom = next;
    }

    static void write(FileChannel channel, ByteBuffer bytes, long position) throws IOException {
        long pos = position;
        while (bytes.hasRemaining()) {
            pos += channel.write(bytes, pos);
        }
    }
}
