package io.etcdworkers.bolt;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a bbolt database file (etcd's {@code member/snap/db} or a full snapshot) with positional
 * reads, one page per tree level in memory at a time.
 *
 * <p>Of the two meta pages it uses the valid one (magic, version, checksum, meta page header)
 * with the highest txid, as bbolt does. It never reads past {@code highWaterMark * pageSize},
 * so a trailer after the database (the SHA-256 of a snapshot) is ignored. Anything unsound is
 * a {@link BoltFormatException}. Not thread-safe.
 */
public final class BoltReader implements AutoCloseable {
    private static final int[] GUESSED_PAGE_SIZES = {4096, 512, 1024, 2048, 8192, 16384, 32768, 65536};

    private final FileChannel channel;
    private final PageFile file;
    private final Meta meta;

    private BoltReader(FileChannel channel, Meta meta) {
        this.channel = channel;
        this.meta = meta;
        this.file = new PageFile(channel, meta);
    }

    /** Opens the file read-only and picks its meta page. */
    public static BoltReader open(Path file) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        try {
            Meta meta = chooseMeta(channel, file);
            return new BoltReader(channel, meta);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The pages, for {@link PageCheck}. */
    PageFile pageFile() {
        return file;
    }

    public int pageSize() {
        return meta.pageSize();
    }

    public long txid() {
        return meta.txid();
    }

    /** The number of pages in use (bbolt's meta {@code pgid}); the database is this many pages long. */
    public long highWaterMark() {
        return meta.highWaterMark();
    }

    /** Whether the meta points to a freelist page (false for etcd's NoFreelistSync files). */
    public boolean hasFreelist() {
        return meta.hasFreelist();
    }

    /** Top-level bucket names in key order. */
    public List<byte[]> bucketNames() throws IOException {
        List<byte[]> names = new ArrayList<>();
        new TreeWalk(file).forEach(root(), "root bucket", (key, value, flags) -> {
            if ((flags & Page.BUCKET_LEAF_FLAG) == 0) {
                throw new BoltFormatException("root bucket holds a plain key " + Keys.show(key));
            }
            names.add(key);
        });
        return names;
    }

    public boolean hasBucket(byte[] name) throws IOException {
        return new TreeWalk(file).child(root(), name, "root bucket").isPresent();
    }

    /** Whether the nested bucket at {@code bucketPath} (names from the root) exists. */
    public boolean hasBucket(List<byte[]> bucketPath) throws IOException {
        return resolve(bucketPath).isPresent();
    }

    /** The sequence number (bbolt's NextSequence counter) of the bucket at {@code bucketPath}. */
    public long sequence(List<byte[]> bucketPath) throws IOException {
        return require(bucketPath).sequence();
    }

    /**
     * Every key/value of a top-level bucket in key order; nested bucket entries are reported
     * with {@code isBucket=true} and {@code value=null}.
     *
     * @throws IllegalArgumentException when there is no such bucket
     */
    public void forEach(byte[] bucket, EntryVisitor visitor) throws IOException {
        forEach(List.of(bucket), visitor);
    }

    /** The same for a nested bucket: {@code bucketPath} are the bucket names from the root. */
    public void forEach(List<byte[]> bucketPath, EntryVisitor visitor) throws IOException {
        BucketRef bucket = require(bucketPath);
        new TreeWalk(file).forEach(bucket, describe(bucketPath), (key, value, flags) -> {
            boolean isBucket = (flags & Page.BUCKET_LEAF_FLAG) != 0;
            visitor.visit(key, isBucket ? null : value, isBucket);
        });
    }

    /**
     * Walks every bucket tree (nested ones too) and the freelist, like bbolt's {@code tx.Check}:
     * no page may be reached twice, every pointer must be below the high-water mark, keys must
     * ascend. Returns how the pages are used; with a freelist, {@link PageUsage#unaccounted()}
     * must be 0 for a consistent file (without one, bbolt takes unreached pages as free).
     */
    public PageUsage checkPages() throws IOException {
        TreeWalk walk = new TreeWalk(file);
        walk.mark(0, 2, "meta pages");
        long[] buckets = {0};
        checkBucket(walk, root(), "root bucket", buckets);
        long treePages = walk.reachedPages() - 2;
        long freelistPages = 0;
        long free = 0;
        if (meta.hasFreelist()) {
            Page page = file.read(meta.freelist(), "freelist");
            if (page.header().flags() != PageHeader.FREELIST) {
                throw new BoltFormatException(page.where() + ": flags "
                        + PageHeader.flagName(page.header().flags()) + ", expected freelist");
            }
            freelistPages = 1 + page.header().overflow();
            walk.mark(meta.freelist(), freelistPages, page.where());
            for (long id : Freelist.ids(page)) {
                file.checkPointer(id, "freelist entry");
                walk.mark(id, 1, "freelist entry " + id);
                free++;
            }
        }
        long unaccounted = meta.highWaterMark() - walk.reachedPages();
        return new PageUsage(meta.highWaterMark(), buckets[0], treePages, freelistPages, free, unaccounted);
    }

    private void checkBucket(TreeWalk walk, BucketRef bucket, String what, long[] buckets) throws IOException {
        buckets[0]++;
        List<byte[]> children = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        walk.forEach(bucket, what, (key, value, flags) -> {
            if ((flags & Page.BUCKET_LEAF_FLAG) != 0) {
                children.add(key);
                values.add(value);
            }
        });
        for (int i = 0; i < children.size(); i++) {
            String child = what + "/" + Keys.show(children.get(i));
            checkBucket(walk, BucketRef.decode(values.get(i), child), child, buckets);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    private BucketRef root() {
        return new BucketRef(meta.root(), meta.rootSequence(), null);
    }

    private Optional<BucketRef> resolve(List<byte[]> bucketPath) throws IOException {
        if (bucketPath.isEmpty()) {
            throw new IllegalArgumentException("empty bucket path");
        }
        BucketRef bucket = root();
        StringBuilder what = new StringBuilder("root bucket");
        for (byte[] name : bucketPath) {
            Optional<BucketRef> child = new TreeWalk(file).child(bucket, name, what.toString());
            if (child.isEmpty()) {
                return Optional.empty();
            }
            bucket = child.get();
            what.append('/').append(Keys.show(name));
        }
        return Optional.of(bucket);
    }

    private BucketRef require(List<byte[]> bucketPath) throws IOException {
        return resolve(bucketPath).orElseThrow(() -> new IllegalArgumentException("no bucket " + describe(bucketPath)));
    }

    private static String describe(List<byte[]> bucketPath) {
        StringBuilder s = new StringBuilder("bucket ");
        for (int i = 0; i < bucketPath.size(); i++) {
            s.append(i == 0 ? "" : "/").append(Keys.show(bucketPath.get(i)));
        }
        return s.toString();
    }

    /** The valid meta with the highest txid, checked against the file's size. */
    private static Meta chooseMeta(FileChannel channel, Path path) throws IOException {
        long size = channel.size();
        List<String> problems = new ArrayList<>();
        Meta meta0 = readMeta(channel, 0, 0, problems);
        Meta meta1 = null;
        if (meta0 != null) {
            meta1 = readMeta(channel, 1, meta0.pageSize(), problems);
        } else {
            // page 0 does not say the page size: try the usual ones for page 1
            for (int pageSize : GUESSED_PAGE_SIZES) {
                List<String> ignored = new ArrayList<>();
                Meta m = readMeta(channel, 1, pageSize, ignored);
                if (m != null && m.pageSize() == pageSize) {
                    meta1 = m;
                    break;
                }
            }
            if (meta1 == null) {
                problems.add("meta page 1: no valid meta at any usual page size");
            }
        }
        Meta meta = meta0 == null
                ? meta1
                : meta1 == null || Long.compareUnsigned(meta0.txid(), meta1.txid()) > 0 ? meta0 : meta1;
        if (meta == null) {
            throw new BoltFormatException(path + ": not a bbolt database (" + String.join("; ", problems) + ")");
        }
        long hwm = meta.highWaterMark();
        if (hwm < 3 || hwm > Integer.MAX_VALUE) {
            throw new BoltFormatException(path + ": implausible high-water mark " + Long.toUnsignedString(hwm));
        }
        long needed = hwm * meta.pageSize();
        if (size < needed) {
            throw new BoltFormatException(path + ": truncated: " + hwm + " pages of " + meta.pageSize() + " bytes need "
                    + needed + " bytes, the file has " + size);
        }
        if (meta.root() < 2 || meta.root() >= hwm) {
            throw new BoltFormatException(
                    path + ": root bucket page " + Long.toUnsignedString(meta.root()) + " outside [2, " + hwm + ")");
        }
        if (meta.hasFreelist() && (meta.freelist() < 2 || meta.freelist() >= hwm)) {
            throw new BoltFormatException(
                    path + ": freelist page " + Long.toUnsignedString(meta.freelist()) + " outside [2, " + hwm + ")");
        }
        return meta;
    }

    /** Meta page {@code index} at {@code index * pageSize}, or null (with the reason added) if invalid. */
    private static Meta readMeta(FileChannel channel, int index, int pageSize, List<String> problems)
            throws IOException {
        String where = "meta page " + index;
        ByteBuffer buf = ByteBuffer.allocate(PageHeader.SIZE + Meta.SIZE).order(ByteOrder.LITTLE_ENDIAN);
        long pos = (long) index * pageSize;
        while (buf.hasRemaining()) {
            if (channel.read(buf, pos + buf.position()) < 0) {
                problems.add(where + ": file too short");
                return null;
            }
        }
        PageHeader header = PageHeader.read(buf, 0);
        if (header.id() != index || header.flags() != PageHeader.META) {
            problems.add(where + ": header is not a meta page header (id " + header.id() + ", flags "
                    + PageHeader.flagName(header.flags()) + ")");
            return null;
        }
        try {
            return Meta.parse(buf, PageHeader.SIZE, where);
        } catch (BoltFormatException e) {
            problems.add(e.getMessage());
            return null;
        }
    }
}
