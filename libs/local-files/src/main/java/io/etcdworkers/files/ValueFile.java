package io.etcdworkers.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A scratch file of values that live keys point into instead of holding them on the heap or
 * copying them: a delta's values as a fetch thread decoded them, or the offline fold's own spill.
 * Reads are positional, through a {@link FileChannel} (the page cache, not the process's resident
 * memory, unlike a mapping).
 *
 * <p>It counts the values pointing into it ({@link #retain}, {@link #release}). Once whoever
 * writes or hands out its values is done with it ({@link #seal}) and no value points into it any
 * more, the file is closed and removed: a delta whose values were all overwritten by later ones
 * leaves the disk as soon as its last live value goes. Used by one thread at a time (a fetch
 * thread writes a delta's file and is done with it before the fold's thread opens it).
 */
public final class ValueFile implements AutoCloseable {
    private static final int BUFFER = 1 << 20;

    private final Path path;
    private final FileChannel channel;
    /** Values appended but not yet written; null for a file opened to read only. */
    private final ByteBuffer pending;

    private long size;
    private long liveValues;
    private long liveBytes;
    private boolean sealed;
    private boolean closed;

    private ValueFile(Path path, FileChannel channel, ByteBuffer pending, long size) {
        this.path = path;
        this.channel = channel;
        this.pending = pending;
        this.size = size;
    }

    /** A finished file (a delta's decoded values), to read values from. */
    public static ValueFile open(Path path) throws IOException {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        return new ValueFile(path, channel, null, channel.size());
    }

    /** A new, empty file to append values to (a spill); it must not exist yet. */
    public static ValueFile create(Path path) throws IOException {
        FileChannel channel =
                OwnerOnly.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
        return new ValueFile(path, channel, ByteBuffer.allocate(BUFFER), 0);
    }

    public Path path() {
        return path;
    }

    /** Bytes in the file, live and garbage (appended ones included). */
    public long size() {
        return size;
    }

    /** How many values point into the file. */
    public long liveValues() {
        return liveValues;
    }

    /** The bytes of the values that point into the file. */
    public long liveBytes() {
        return liveBytes;
    }

    /** Appends {@code value}, which nothing points to yet. */
    public ValueRef append(byte[] value) throws IOException {
        if (pending == null || sealed) {
            throw new IllegalStateException("value file " + path + " is not open for appending");
        }
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
        return new ValueRef(this, offset, value.length);
    }

    /** The {@code length} bytes at {@code offset}. */
    public byte[] read(long offset, int length) throws IOException {
        if (offset < 0 || length < 0 || offset + length > size) {
            throw new IOException("value file " + path + " holds " + size + " bytes, not " + length + " at " + offset);
        }
        if (pending != null && offset + length > size - pending.position()) {
            flush();
        }
        byte[] out = new byte[length];
        ByteBuffer buf = ByteBuffer.wrap(out);
        long at = offset;
        while (buf.hasRemaining()) {
            int n = channel.read(buf, at);
            if (n < 0) {
                throw new IOException("value file " + path + " ends before offset " + (offset + length)
                        + ": the scratch file was cut");
            }
            at += n;
        }
        return out;
    }

    /** One more value of {@code length} bytes points into the file. */
    public void retain(int length) {
        liveValues++;
        liveBytes += length;
    }

    /** A value of {@code length} bytes no longer points into the file: removed once sealed and unused. */
    public void release(int length) throws IOException {
        if (liveValues <= 0) {
            throw new IllegalStateException("value file " + path + " released more values than it held");
        }
        liveValues--;
        liveBytes -= length;
        closeIfUnused();
    }

    /**
     * Writes the values still buffered. Until then a read of them writes them first, which only
     * one thread may do; after it, with no value appended, reads from several threads at once are
     * safe (positional reads of the channel).
     */
    public void flushPending() throws IOException {
        flush();
    }

    /** No new value will point into the file: it goes as soon as none does. */
    public void seal() throws IOException {
        if (!sealed) {
            flush();
            sealed = true;
        }
        closeIfUnused();
    }

    private void closeIfUnused() throws IOException {
        if (sealed && liveValues == 0) {
            close();
        }
    }

    private void flush() throws IOException {
        if (pending == null || pending.position() == 0) {
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

    /** Closes and removes the file, whatever still points into it (the fold ended). */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            try {
                channel.close();
            } finally {
                Files.deleteIfExists(path);
            }
        }
    }

    @Override
    public String toString() {
        return path.getFileName() + " (" + liveValues + " live values, " + liveBytes + " of " + size + " bytes)";
    }
}
