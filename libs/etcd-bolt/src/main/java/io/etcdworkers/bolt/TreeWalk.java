package io.etcdworkers.bolt;

import java.io.IOException;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Optional;

/**
 * One walk over bucket trees. Each page may be reached only once per walk (so a cycle or a page
 * shared by two parents is a {@link BoltFormatException}, never an endless loop), the tree may
 * be at most {@link #MAX_DEPTH} deep, and a bucket's keys must come strictly ascending.
 */
final class TreeWalk {
    /** Far above any real tree (a 4 KiB-page tree of 2^64 entries is ~20 levels). */
    static final int MAX_DEPTH = 64;

    /** What a walk reports per leaf element: the raw value even for nested buckets. */
    interface LeafVisitor {
        void visit(byte[] key, byte[] value, int flags) throws IOException;
    }

    private final PageFile file;
    private final BitSet reached = new BitSet();
    private long reachedPages;

    TreeWalk(PageFile file) {
        this.file = file;
    }

    long reachedPages() {
        return reachedPages;
    }

    BitSet reached() {
        return reached;
    }

    /** Every leaf element of the bucket, in key order. */
    void forEach(BucketRef bucket, String what, LeafVisitor visitor) throws IOException {
        KeyOrder order = new KeyOrder(what);
        if (bucket.inline() != null) {
            visitLeaf(bucket.inline(), order, visitor);
        } else {
            walk(bucket.root(), 0, what, order, visitor);
        }
    }

    /** The nested bucket {@code name} of {@code bucket}, if it has one by that name. */
    Optional<BucketRef> child(BucketRef bucket, byte[] name, String what) throws IOException {
        Page page = bucket.inline();
        if (page == null) {
            long pgid = bucket.root();
            for (int depth = 0; ; depth++) {
                page = readTreePage(pgid, depth, what);
                if (page.isLeaf()) {
                    break;
                }
                int index = 0;
                for (int i = 1; i < page.count(); i++) {
                    if (Arrays.compareUnsigned(page.branchKey(i), name) <= 0) {
                        index = i;
                    } else {
                        break;
                    }
                }
                pgid = page.branchPgid(index);
            }
        }
        for (int i = 0; i < page.count(); i++) {
            byte[] key = page.leafKey(i);
            int cmp = Arrays.compareUnsigned(key, name);
            if (cmp == 0) {
                if ((checkLeafFlags(page, i) & Page.BUCKET_LEAF_FLAG) == 0) {
                    return Optional.empty();
                }
                return Optional.of(BucketRef.decode(page.leafValue(i), what + "/" + Keys.show(name)));
            }
            if (cmp > 0) {
                break;
            }
        }
        return Optional.empty();
    }

    private void walk(long pgid, int depth, String what, KeyOrder order, LeafVisitor visitor) throws IOException {
        Page page = readTreePage(pgid, depth, what);
        if (page.isLeaf()) {
            visitLeaf(page, order, visitor);
            return;
        }
        if (page.count() == 0) {
            throw new BoltFormatException(page.where() + ": branch page without elements");
        }
        byte[] previous = null;
        for (int i = 0; i < page.count(); i++) {
            byte[] key = page.branchKey(i);
            if (previous != null && Arrays.compareUnsigned(previous, key) >= 0) {
                throw new BoltFormatException(page.where() + ": branch keys not ascending at element " + i);
            }
            previous = key;
            walk(page.branchPgid(i), depth + 1, what, order, visitor);
        }
    }

    private Page readTreePage(long pgid, int depth, String what) throws IOException {
        if (depth > MAX_DEPTH) {
            throw new BoltFormatException(what + ": tree deeper than " + MAX_DEPTH + " levels");
        }
        file.checkPointer(pgid, what);
        Page page = file.read(pgid, what);
        if (!page.isLeaf() && !page.isBranch()) {
            throw new BoltFormatException(page.where() + ": flags "
                    + PageHeader.flagName(page.header().flags()) + " where a branch or leaf page belongs");
        }
        mark(pgid, 1 + page.header().overflow(), page.where());
        return page;
    }

    /** Records that pages {@code [pgid, pgid + span)} belong to something; each may belong once. */
    void mark(long pgid, long span, String where) throws BoltFormatException {
        // ids are below the high-water mark, itself bounded by the file size / page size
        int from = Math.toIntExact(pgid);
        int to = Math.toIntExact(pgid + span);
        int seen = reached.nextSetBit(from);
        if (seen >= 0 && seen < to) {
            throw new BoltFormatException(where + ": page " + seen + " is reached twice (a cycle or a shared page)");
        }
        reached.set(from, to);
        reachedPages += span;
    }

    private void visitLeaf(Page page, KeyOrder order, LeafVisitor visitor) throws IOException {
        for (int i = 0; i < page.count(); i++) {
            int flags = checkLeafFlags(page, i);
            byte[] key = page.leafKey(i);
            order.next(key, page.where());
            visitor.visit(key, page.leafValue(i), flags);
        }
    }

    private static int checkLeafFlags(Page page, int i) throws BoltFormatException {
        int flags = page.leafFlags(i);
        if ((flags & ~Page.BUCKET_LEAF_FLAG) != 0) {
            throw new BoltFormatException(
                    page.where() + ": element " + i + " has unknown flags " + String.format("0x%x", flags));
        }
        return flags;
    }

    /** Keys of one bucket must be non-empty and strictly ascending (unsigned bytewise). */
    private static final class KeyOrder {
        private final String what;
        private byte[] last;

        KeyOrder(String what) {
            this.what = what;
        }

        void next(byte[] key, String where) throws BoltFormatException {
            if (key.length == 0) {
                throw new BoltFormatException(where + ": empty key in " + what);
            }
            if (last != null && Arrays.compareUnsigned(last, key) >= 0) {
                throw new BoltFormatException(where + ": keys of " + what + " not ascending: " + Keys.show(key)
                        + " after " + Keys.show(last));
            }
            last = key;
        }
    }
}
