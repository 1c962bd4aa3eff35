package io.etcdworkers.format;

import io.etcdworkers.format.codec.BulkInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads its source on a thread of its own, a few blocks ahead of the reader: a full snapshot is
 * downloaded and decompressed there while the reader hashes and writes what came before, on two
 * cores instead of one. The reader gets the same bytes, and the source's failure (its exception,
 * as it was thrown) after every byte read before it; {@link #close} stops the thread and closes
 * the source. Memory: five blocks of 1 MiB.
 */
public final class ReadAheadInputStream extends BulkInputStream {
    static final int BLOCK = 1 << 20;
    private static final int BLOCKS = 4;

    private final InputStream source;
    private final BlockingQueue<Object> filled;
    private final BlockingQueue<byte[]> empty;
    private final Thread reader;
    private Block current;
    private int pos;
    private Object ended;

    /** A block of the source; {@code length < data.length} only for the last, or the one before a failure. */
    private record Block(byte[] data, int length) {}

    /** The source ended normally. */
    private static final Object END = new Object();

    public ReadAheadInputStream(InputStream source, String threadName) {
        this(source, threadName, BLOCK, BLOCKS);
    }

    ReadAheadInputStream(InputStream source, String threadName, int blockSize, int blocks) {
        this.source = Objects.requireNonNull(source, "source");
        this.filled = new ArrayBlockingQueue<>(blocks + 1);
        this.empty = new ArrayBlockingQueue<>(blocks + 2);
        for (int i = 0; i < blocks + 1; i++) {
            empty.add(new byte[blockSize]);
        }
        this.reader = new Thread(this::readAll, threadName);
        reader.setDaemon(true);
        reader.start();
    }

    private void readAll() {
        try {
            while (true) {
                byte[] data = empty.take();
                int length = 0;
                int n = 0;
                try {
                    while (length < data.length && (n = source.read(data, length, data.length - length)) >= 0) {
                        length += n;
                    }
                } catch (IOException | RuntimeException | Error e) {
                    // what was read before the failure is the reader's first
                    filled.put(new Block(data, length));
                    filled.put(e);
                    return;
                }
                filled.put(new Block(data, length));
                if (n < 0) {
                    filled.put(END);
                    return;
                }
            }
        } catch (InterruptedException e) {
            // closed: nobody reads what is left
        }
    }

    @Override
    protected int readSome(byte[] b, int off, int len) throws IOException {
        while (current == null || pos == current.length()) {
            if (current != null) {
                empty.add(current.data());
                current = null;
            }
            if (ended != null) {
                return rethrow(ended);
            }
            Object next = take();
            if (next instanceof Block block) {
                current = block;
                pos = 0;
            } else {
                ended = next;
            }
        }
        int n = Math.min(len, current.length() - pos);
        System.arraycopy(current.data(), pos, b, off, n);
        pos += n;
        return n;
    }

    private Object take() throws InterruptedIOException {
        try {
            return filled.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the snapshot's next bytes");
        }
    }

    /** -1 at the source's end, else its failure as it was thrown. */
    private static int rethrow(Object end) throws IOException {
        if (end == END) {
            return -1;
        }
        if (end instanceof IOException e) {
            throw e;
        }
        if (end instanceof RuntimeException e) {
            throw e;
        }
        throw (Error) end;
    }

    @Override
    public void close() throws IOException {
        if (!markClosed()) {
            return;
        }
        reader.interrupt();
        try {
            // a read that ignores the interrupt (a socket's) ends when the source is closed below
            reader.join(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        source.close();
    }
}
