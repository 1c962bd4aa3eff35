package io.etcdworkers.bolt;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One level of a B+tree built bottom-up from elements that arrive in key order, cut into pages
 * exactly where bbolt's {@code node.split} would cut one node holding all of them:
 *
 * <ul>
 *   <li>a node is not split when it has at most 4 elements ({@code 2 * minKeysPerPage}) or its
 *       size is below one page (size = 16-byte header + per element 16 + key (+ value));</li>
 *   <li>otherwise it is cut at the first index {@code i >= 2} where {@code size + elementSize >
 *       threshold} ({@code threshold = (int) (pageSize * fillPercent)}), searching only indexes
 *       that leave at least 3 elements for the rest (if none qualifies, the cut is at
 *       {@code len - 3}); the rest is split again the same way.</li>
 * </ul>
 *
 * Streaming: a cut is final as soon as the elements held since the last cut make the node too
 * big to stay whole (more than 4 elements and at least a page) and 3 elements follow the cut
 * index; these conditions only become truer as elements arrive. So at most about two pages of
 * elements (plus up to two large first elements) are held at any time.
 */
final class NodeBuilder {
    static final int MIN_KEYS_PER_PAGE = 2;

    /** Receives each completed page's elements, in key order. */
    interface Emitter {
        void emit(List<Element> page) throws IOException;
    }

    /** A leaf element (key, value, flags) or a branch element (key, child pgid). */
    record Element(byte[] key, byte[] value, long pgid, int flags) {
        static Element leaf(byte[] key, byte[] value, int flags) {
            return new Element(key, value, 0, flags);
        }

        static Element branch(byte[] key, long pgid) {
            return new Element(key, null, pgid, 0);
        }

        long size() {
            return Page.ELEMENT_SIZE + (long) key.length + (value == null ? 0 : value.length);
        }
    }

    private final int pageSize;
    private final long threshold;
    private final Emitter emitter;
    private final List<Element> held = new ArrayList<>();
    private long heldSize = PageHeader.SIZE;
    // the split-index search of bbolt over `held`, advanced as elements arrive
    private int scanned;
    private long scannedSize = PageHeader.SIZE;
    private int breakIndex = -1;
    private long pages;
    private long maxHeldSize;

    NodeBuilder(int pageSize, double fillPercent, Emitter emitter) {
        this.pageSize = pageSize;
        this.threshold = (long) (pageSize * fillPercent);
        this.emitter = emitter;
    }

    /** The most bytes of elements (as serialized, header included) held at once: the memory bound. */
    long maxHeldSize() {
        return maxHeldSize;
    }

    /** Pages emitted so far. */
    long pages() {
        return pages;
    }

    void add(Element element) throws IOException {
        held.add(element);
        heldSize += element.size();
        maxHeldSize = Math.max(maxHeldSize, heldSize);
        scan();
        while (breakIndex >= 0 && mustSplit() && held.size() - breakIndex > MIN_KEYS_PER_PAGE) {
            emitFirst(breakIndex);
        }
    }

    /**
     * Emits what is held as the last node(s) of the level. With nothing held and nothing emitted,
     * emits one empty page when {@code emptyPage} (an empty bucket's root leaf).
     */
    void finish(boolean emptyPage) throws IOException {
        while (mustSplit()) {
            int lastAllowed = held.size() - MIN_KEYS_PER_PAGE - 1;
            emitFirst(breakIndex >= 0 && breakIndex <= lastAllowed ? breakIndex : lastAllowed);
        }
        if (!held.isEmpty() || (emptyPage && pages == 0)) {
            emitFirst(held.size());
        }
    }

    /** bbolt's splitTwo precondition: more than 4 elements and not less than a page. */
    private boolean mustSplit() {
        return held.size() > 2 * MIN_KEYS_PER_PAGE && heldSize >= pageSize;
    }

    private void scan() {
        while (breakIndex < 0 && scanned < held.size()) {
            long size = held.get(scanned).size();
            if (scanned >= MIN_KEYS_PER_PAGE && scannedSize + size > threshold) {
                breakIndex = scanned;
            } else {
                scannedSize += size;
                scanned++;
            }
        }
    }

    private void emitFirst(int n) throws IOException {
        List<Element> page = held.subList(0, n);
        List<Element> copy = List.copyOf(page);
        for (Element e : copy) {
            heldSize -= e.size();
        }
        page.clear();
        scanned = 0;
        scannedSize = PageHeader.SIZE;
        breakIndex = -1;
        scan();
        pages++;
        emitter.emit(copy);
    }
}
