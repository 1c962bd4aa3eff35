package io.etcdworkers.bolt;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * The structure check of a bbolt file as bbolt's {@code tx.Check} ({@code tx_check.go}) makes it,
 * going on after each fault so that every one is reported: every page of every bucket tree (nested
 * and inline buckets too) is a branch or leaf page carrying its own id, below the high-water mark,
 * reached once; its keys are in order and inside the range its parent's branch element gives it;
 * the freelist lists no page twice, none that a tree reaches, none outside the file; and, when the
 * file has a freelist, no page is neither reached nor free. A file without a freelist (etcd writes
 * none) takes its unreached pages as free, as bbolt does.
 *
 * <p>Each fault names the page and the path to it: the bucket names from the root and the pages
 * walked through.
 */
public final class PageCheck {
    /** The first fault only: a restore refuses on it. */
    public static final int FIRST = 1;
    /** Every fault, up to a number that keeps a wrecked file's report readable. */
    public static final int ALL = 1000;

    private final PageFile file;
    private final Meta meta;
    private final BitSet reached = new BitSet();
    private final List<String> faults = new ArrayList<>();
    private final int limit;

    private PageCheck(PageFile file, int limit) {
        this.file = file;
        this.meta = file.meta();
        this.limit = limit;
    }

    /**
     * The faults of the file, at most {@code limit}; empty for a sound file. A file whose meta
     * pages are both invalid, or that is shorter than its pages, is one fault.
     */
    public static List<String> faults(Path path, int limit) throws IOException {
        try (BoltReader reader = BoltReader.open(path)) {
            PageCheck check = new PageCheck(reader.pageFile(), limit);
            check.run();
            return List.copyOf(check.faults);
        } catch (BoltFormatException e) {
            return List.of(e.getMessage().replace(path.toString(), "the file"));
        }
    }

    private void run() throws IOException {
        reached.set(0, 2);
        tree(meta.root(), "root bucket", "", null, null, 0);
        if (meta.hasFreelist()) {
            freelist();
        }
    }

    private boolean full() {
        return faults.size() >= limit;
    }

    private void fault(String message) {
        if (!full()) {
            faults.add(message);
        }
    }

    /**
     * One page of a bucket's tree and what is below it; {@code min} (inclusive) and {@code max}
     * (exclusive) bound its keys, null for no bound.
     */
    private void tree(long pgid, String bucket, String via, byte[] min, byte[] max, int depth) throws IOException {
        String where = "page " + pgid + " (" + bucket + (via.isEmpty() ? "" : ", via pages " + via) + ")";
        if (full()) {
            return;
        }
        if (depth > TreeWalk.MAX_DEPTH) {
            fault(where + ": tree deeper than " + TreeWalk.MAX_DEPTH + " levels");
            return;
        }
        if (pgid < 2 || pgid >= meta.highWaterMark()) {
            fault(where + ": page id outside the pages in use [2, " + meta.highWaterMark() + ")");
            return;
        }
        if (reached.get((int) pgid)) {
            fault(where + ": multiple references (the page is reached twice)");
            return;
        }
        Page page;
        try {
            page = file.read(pgid, bucket);
        } catch (BoltFormatException e) {
            reached.set((int) pgid);
            fault(where + ": " + e.getMessage());
            return;
        }
        long span = 1 + page.header().overflow();
        int seen = reached.nextSetBit((int) pgid);
        if (seen >= 0 && seen < pgid + span) {
            fault(where + ": its " + page.header().overflow() + " overflow pages reach page " + seen
                    + ", which is reached from elsewhere");
        }
        reached.set((int) pgid, (int) (pgid + span));
        if (!page.isLeaf() && !page.isBranch()) {
            fault(where + ": invalid page type "
                    + PageHeader.flagName(page.header().flags()) + " where a branch or leaf page belongs");
            return;
        }
        String path = via.isEmpty() ? Long.toString(pgid) : via + " > " + pgid;
        try {
            if (page.isLeaf()) {
                leaf(page, where, bucket, path, min, max, depth);
            } else {
                branch(page, where, bucket, path, min, max, depth);
            }
        } catch (BoltFormatException e) {
            fault(where + ": " + e.getMessage());
        }
    }

    private void branch(Page page, String where, String bucket, String path, byte[] min, byte[] max, int depth)
            throws IOException {
        if (page.count() == 0) {
            fault(where + ": branch page without elements");
            return;
        }
        byte[][] keys = new byte[page.count()][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = page.branchKey(i);
            order(where, i, i == 0 ? null : keys[i - 1], keys[i], min, max);
        }
        for (int i = 0; i < keys.length; i++) {
            byte[] childMax = i + 1 < keys.length ? keys[i + 1] : max;
            tree(page.branchPgid(i), bucket, path, keys[i], childMax, depth + 1);
        }
    }

    private void leaf(Page page, String where, String bucket, String path, byte[] min, byte[] max, int depth)
            throws IOException {
        byte[] previous = null;
        for (int i = 0; i < page.count() && !full(); i++) {
            int flags = page.leafFlags(i);
            if ((flags & ~Page.BUCKET_LEAF_FLAG) != 0) {
                fault(where + ": element " + i + " has unknown flags " + String.format("0x%x", flags));
                continue;
            }
            byte[] key = page.leafKey(i);
            order(where, i, previous, key, min, max);
            previous = key;
            if ((flags & Page.BUCKET_LEAF_FLAG) != 0) {
                String child = bucket + "/" + Keys.show(key);
                try {
                    BucketRef ref = BucketRef.decode(page.leafValue(i), child);
                    if (ref.inline() != null) {
                        leaf(
                                ref.inline(),
                                "inline bucket " + child + " (in page " + path + ")",
                                child,
                                path,
                                null,
                                null,
                                depth + 1);
                    } else {
                        tree(ref.root(), child, path, null, null, 0);
                    }
                } catch (BoltFormatException e) {
                    fault(where + ": " + e.getMessage());
                }
            }
        }
    }

    /** A key must be non-empty, after the one before it, and inside the parent's range. */
    private void order(String where, int i, byte[] previous, byte[] key, byte[] min, byte[] max) {
        if (key.length == 0) {
            fault(where + ": element " + i + " has an empty key");
        } else if (previous != null && Arrays.compareUnsigned(previous, key) >= 0) {
            fault(where + ": keys out of order at element " + i + ": " + Keys.show(key) + " after "
                    + Keys.show(previous));
        } else if (min != null && Arrays.compareUnsigned(key, min) < 0
                || max != null && Arrays.compareUnsigned(key, max) >= 0) {
            fault(where + ": key " + Keys.show(key) + " at element " + i
                    + " is outside the range its parent gives the page ["
                    + (min == null ? "-" : Keys.show(min)) + ", " + (max == null ? "-" : Keys.show(max)) + ")");
        }
    }

    private void freelist() throws IOException {
        long pgid = meta.freelist();
        String where = "page " + pgid + " (freelist)";
        Page page;
        try {
            page = file.read(pgid, "freelist");
        } catch (BoltFormatException e) {
            fault(where + ": " + e.getMessage());
            return;
        }
        if (page.header().flags() != PageHeader.FREELIST) {
            fault(where + ": invalid page type "
                    + PageHeader.flagName(page.header().flags()) + ", expected freelist");
            return;
        }
        long span = 1 + page.header().overflow();
        if (reached.get((int) pgid, (int) (pgid + span)).cardinality() > 0) {
            fault(where + ": the freelist's pages are reached from a tree too");
        }
        reached.set((int) pgid, (int) (pgid + span));
        BitSet free = new BitSet();
        long[] ids;
        try {
            ids = Freelist.ids(page);
        } catch (BoltFormatException e) {
            fault(where + ": " + e.getMessage());
            return;
        }
        for (long id : ids) {
            if (id < 2 || id >= meta.highWaterMark()) {
                fault("page " + Long.toUnsignedString(id) + " (freelist entry): outside the pages in use [2, "
                        + meta.highWaterMark() + ")");
            } else if (free.get((int) id)) {
                fault("page " + id + " (freelist entry): already freed");
            } else if (reached.get((int) id)) {
                fault("page " + id + " (freelist entry): reachable from a bucket tree and freed");
            } else {
                free.set((int) id);
            }
        }
        for (int id = 2; id < meta.highWaterMark() && !full(); id++) {
            if (!reached.get(id) && !free.get(id)) {
                fault("page " + id + ": unreachable unfreed");
            }
        }
    }
}
