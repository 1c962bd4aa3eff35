package io.etcdworkers.bolt;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Writes a new bbolt database file in one pass, streaming: memory is a few pages per tree level,
 * not per entry. Top-level buckets may come in any order, one open at a time, each once; every
 * bucket gets its own page tree (none inline; an empty bucket is one empty leaf page), filled as
 * etcd's defragmentation fills it (see {@link NodeBuilder}).
 *
 * <p>Layout: pages 0 and 1 are the meta pages, page 2 an empty freelist, bucket pages follow in
 * the order they complete, the root bucket's pages last. Nothing is free: the high-water mark is
 * the number of pages written. Both metas point to the same tree, txid 2 on page 0 and 1 on
 * page 1 (bbolt keeps txid {@code t} on page {@code t % 2}).
 *
 * <p>Not thread-safe. After an I/O failure the writer only accepts {@link #close()}, which, like
 * closing without {@link #finish()}, deletes the incomplete file.
 */
public final class BoltWriter implements AutoCloseable {
    static final long FIRST_DATA_PAGE = 3;
    private static final long FREELIST_PGID = 2;
    /** {@code 0600} from its creation on (a umask can only take bits away): the file holds etcd's keys and values. */
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private final Path path;
    private final FileChannel channel;
    private final int pageSize;
    private final PageSink sink;
    private final Map<byte[], byte[]> buckets = new TreeMap<>(Arrays::compareUnsigned);
    private BucketWriter open;
    private byte[] openName;
    private boolean finished;
    private boolean failed;
    private boolean closed;

    private BoltWriter(Path path, FileChannel channel, int pageSize) {
        this.path = path;
        this.channel = channel;
        this.pageSize = pageSize;
        this.sink = new PageSink(channel, pageSize, FIRST_DATA_PAGE);
    }

    /**
     * Creates {@code file}, which must not exist yet.
     *
     * @param pageSize a power of two from 512 to 65536; etcd uses the OS page size, 4096
     */
    public static BoltWriter create(Path file, int pageSize) throws IOException {
        if (pageSize < 512 || pageSize > 65536 || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("page size must be a power of two in [512, 65536]: " + pageSize);
        }
        FileChannel channel = FileChannel.open(
                file,
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ),
                OWNER_ONLY);
        return new BoltWriter(file, channel, pageSize);
    }

    public int pageSize() {
        return pageSize;
    }

    /**
     * Starts a top-level bucket.
     *
     * @throws IllegalStateException when another bucket is open or the writer is finished
     * @throws IllegalArgumentException when the name was used already, is empty or too long
     */
    public BucketWriter bucket(byte[] name) {
        Objects.requireNonNull(name, "name");
        checkUsable();
        if (open != null) {
            throw new IllegalStateException("bucket " + Keys.show(openName) + " is still open");
        }
        BucketWriter.checkKey(name, "bucket name");
        if (buckets.containsKey(name)) {
            throw new IllegalArgumentException("bucket " + Keys.show(name) + " was written already");
        }
        byte[] copy = name.clone();
        buckets.put(copy, null);
        openName = copy;
        open = new BucketWriter(this, copy, new TreeBuilder(sink, pageSize));
        return open;
    }

    /**
     * Writes the root bucket's pages, the empty freelist page and both meta pages, then fsyncs.
     *
     * @return the database size in bytes: high-water mark times page size
     */
    public long finish() throws IOException {
        checkUsable();
        if (open != null) {
            throw new IllegalStateException("bucket " + Keys.show(openName) + " is still open");
        }
        long[] root = new long[1];
        guard(() -> {
            TreeBuilder rootTree = new TreeBuilder(sink, pageSize);
            for (Map.Entry<byte[], byte[]> bucket : buckets.entrySet()) {
                rootTree.add(NodeBuilder.Element.leaf(bucket.getKey(), bucket.getValue(), Page.BUCKET_LEAF_FLAG));
            }
            root[0] = rootTree.finish();
            sink.flush();
            long hwm = sink.nextPgid();
            ByteBuffer freelist = ByteBuffer.allocate(pageSize).order(ByteOrder.LITTLE_ENDIAN);
            PageHeader.write(freelist, 0, FREELIST_PGID, PageHeader.FREELIST, 0, 0);
            PageSink.write(channel, freelist, FREELIST_PGID * pageSize);
            for (int i = 0; i < 2; i++) {
                ByteBuffer page = ByteBuffer.allocate(pageSize).order(ByteOrder.LITTLE_ENDIAN);
                PageHeader.write(page, 0, i, PageHeader.META, 0, 0);
                new Meta(pageSize, 0, root[0], 0, FREELIST_PGID, hwm, i == 0 ? 2 : 1).write(page, PageHeader.SIZE);
                PageSink.write(channel, page, (long) i * pageSize);
            }
            channel.force(true);
        });
        finished = true;
        return sink.nextPgid() * pageSize;
    }

    /** Closes the file; deletes it unless {@link #finish()} succeeded. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        channel.close();
        if (!finished) {
            Files.deleteIfExists(path);
        }
    }

    void bucketClosed(BucketWriter bucket, byte[] name, long root, long sequence) {
        if (bucket != open) {
            throw new IllegalStateException("not the open bucket");
        }
        buckets.put(name, BucketRef.encode(root, sequence));
        open = null;
        openName = null;
    }

    /** Runs a write; an I/O failure leaves the writer unusable (the file is incomplete). */
    void guard(IoAction action) throws IOException {
        checkUsable();
        try {
            action.run();
        } catch (IOException | RuntimeException e) {
            failed = true;
            throw e;
        }
    }

    private void checkUsable() {
        if (closed || finished) {
            throw new IllegalStateException("writer of " + path + " is " + (closed ? "closed" : "finished"));
        }
        if (failed) {
            throw new IllegalStateException("writer of " + path + " failed earlier; close it");
        }
    }

    interface IoAction {
        void run() throws IOException;
    }
}
