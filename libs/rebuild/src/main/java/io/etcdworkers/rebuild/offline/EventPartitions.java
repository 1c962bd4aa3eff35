package io.etcdworkers.rebuild.offline;

import io.etcdworkers.files.OwnerOnly;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The fold's changes, split by key into partition files once the live keys outgrow the fold's
 * memory: every change of one key lands in the same partition, in the order it came, so each
 * partition can later be folded on its own ({@link PartitionFold}) with a fraction of the keys
 * on the heap. Writing holds one small buffer per partition, whatever the number of keys.
 */
final class EventPartitions implements AutoCloseable {
    /** Enough that a partition is a small share of the keys; few enough that the open buffers stay small. */
    static final int DEFAULT_COUNT = 64;

    private static final int BUFFER = 64 * 1024;

    enum Kind {
        /** a key's state as the base or the in-memory fold had it: taken as it is */
        SET,
        /** a base tombstone */
        UNSET,
        /** a delta's put: checked against the key's state */
        PUT,
        /** a delta's delete: the key must be live */
        DELETE
    }

    /** One change as written: the key's state it gives; {@code object} indexes the delta names ({@code -1} for the base). */
    record Change(Kind kind, int object, FoldedKey state) {}

    private final Path dir;
    private final List<Path> files = new ArrayList<>();
    private final DataOutputStream[] out;
    /** Per partition: the heap its keys could take once folded, at most (every SET and PUT a new key). */
    private final long[] heapAtMost;

    private long changes;
    private long bytes;

    /** @param count a power of two */
    EventPartitions(Path dir, int count) throws IOException {
        if (Integer.bitCount(count) != 1 || count < 2) {
            throw new IllegalArgumentException("partition count must be a power of two above 1: " + count);
        }
        this.dir = OwnerOnly.createDirectories(dir);
        this.out = new DataOutputStream[count];
        this.heapAtMost = new long[count];
        for (int i = 0; i < count; i++) {
            Path file = dir.resolve(String.format("partition-%03d.changes", i));
            files.add(file);
            out[i] = new DataOutputStream(new BufferedOutputStream(OwnerOnly.newOutputStream(file), BUFFER));
        }
    }

    int count() {
        return out.length;
    }

    long changes() {
        return changes;
    }

    long bytes() {
        return bytes;
    }

    Path dir() {
        return dir;
    }

    void add(Kind kind, int object, byte[] key, byte[] value, long create, long mod, int sub, long version, long lease)
            throws IOException {
        int p = partition(key, out.length);
        DataOutputStream o = out[p];
        if (kind == Kind.SET || kind == Kind.PUT) {
            heapAtMost[p] += LiveKeys.HEAP_BYTES_PER_KEY + key.length;
        }
        o.writeByte(kind.ordinal());
        o.writeInt(object);
        KeyRecord.write(o, key, value, create, mod, sub, version, lease);
        changes++;
        bytes += 5 + KeyRecord.FIXED_BYTES + key.length + value.length;
    }

    /** The most heap one partition's keys could take once folded (as if every change made a new key). */
    long largestPartitionHeap() {
        long max = 0;
        for (long h : heapAtMost) {
            max = Math.max(max, h);
        }
        return max;
    }

    /** Ends the writing; the files can then be read, one by one. */
    List<Path> finish() throws IOException {
        for (DataOutputStream o : out) {
            o.close();
        }
        return List.copyOf(files);
    }

    int partition(byte[] key) {
        return partition(key, out.length);
    }

    /** The partition of {@code key} among {@code count} (a power of two). */
    static int partition(byte[] key, int count) {
        int h = Arrays.hashCode(key);
        h ^= h >>> 16;
        return (h * 0x9E3779B1) >>> (32 - Integer.numberOfTrailingZeros(count));
    }

    /** Reads one partition file back, change by change. */
    static final class Reader implements AutoCloseable {
        private static final Kind[] KINDS = Kind.values();
        private final Path file;
        private final DataInputStream in;

        Reader(Path file) throws IOException {
            this.file = file;
            InputStream raw = Files.newInputStream(file);
            this.in = new DataInputStream(new BufferedInputStream(raw, BUFFER));
        }

        /** @return the next change, or null at the end */
        Change next() throws IOException {
            int kind = in.read();
            if (kind < 0) {
                return null;
            }
            if (kind >= KINDS.length) {
                throw new IOException(file + ": not a partition file (change kind " + kind + ")");
            }
            int object;
            try {
                object = in.readInt();
            } catch (EOFException e) {
                throw new IOException(file + " ends inside a change: it was not written completely", e);
            }
            FoldedKey state = KeyRecord.read(in, file);
            if (state == null) {
                throw new IOException(file + " ends inside a change: it was not written completely");
            }
            return new Change(KINDS[kind], object, state);
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    @Override
    public void close() throws IOException {
        for (DataOutputStream o : out) {
            try {
                o.close();
            } catch (IOException ignored) {
                // closing after a failure; the files are removed below
            }
        }
        for (Path f : files) {
            Files.deleteIfExists(f);
        }
    }
}
