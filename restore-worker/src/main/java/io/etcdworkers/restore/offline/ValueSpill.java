package io.etcdworkers.restore.offline;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Values of the fold, kept in a scratch file instead of the heap: the fold appends every value
 * it meets and remembers only where each live key's value is. Reads and writes go through a
 * {@link FileChannel} (page cache, not the process's resident memory, unlike a mapping).
 *
 * <p>Overwritten values become garbage in the file; {@link LiveKeys#compactSpill} rewrites it
 * with only the live values once garbage dominates, so the file stays within a small multiple
 * of the live data.
 */
final class ValueSpill implements AutoCloseable {
    private static final int BUFFER = 1 << 20;

    private final Path file;
    private final FileChannel channel;
    private final ByteBuffer pending = ByteBuffer.allocate(BUFFER);
    private long size;

    ValueSpill(Path file) throws IOException {
        this.file = file;
        this.channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
    }

    Path file() {
        return file;
    }

    /** @return the offset of {@code value} in the file */
    long append(byte[] value) throws IOException {
        long offset = size;
        if (value.length > pending.remaining()) {
            flush();
        }
        if (value.length > pending.capacity()) {
            writeFully(ByteBuffer.wrap(value), offset);
        } else {
            pending.put(value);
        }
        size += value.length;
        return offset;
    }

    byte[] read(long offset, int length) throws IOException {
        if (offset + length > size - pending.position()) {
            flush();
        }
        byte[] out = new byte[length];
        ByteBuffer buf = ByteBuffer.wrap(out);
        long at = offset;
        while (buf.hasRemaining()) {
            int n = channel.read(buf, at);
            if (n < 0) {
                throw new IOException("value spill " + file + " ends before offset " + (offset + length));
            }
            at += n;
        }
        return out;
    }

    /** Bytes appended so far (live and garbage). */
    long size() {
        return size;
    }

    private void flush() throws IOException {
        if (pending.position() == 0) {
            return;
        }
        pending.flip();
        writeFully(pending, size - pending.remaining());
        pending.clear();
    }

    private void writeFully(ByteBuffer buf, long at) throws IOException {
        long position = at;
        while (buf.hasRemaining()) {
            position += channel.write(buf, position);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
        Files.deleteIfExists(file);
    }
}
