package io.etcdworkers.bolt;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A branch or leaf page read into memory (a file page with its overflow pages, or the page
 * inside an inline bucket's value), with bounds-checked access to its elements.
 *
 * <p>After the 16-byte header come {@code count} 16-byte elements. A leaf element is {@code
 * flags u32, pos u32, ksize u32, vsize u32}; a branch element is {@code pos u32, ksize u32,
 * pgid u64}. {@code pos} is the offset of the key from the element's own start; a leaf's value
 * follows its key. Leaf flag {@code 0x01} marks a nested bucket.
 */
final class Page {
    static final int ELEMENT_SIZE = 16;
    static final int BUCKET_LEAF_FLAG = 0x01;

    private final ByteBuffer buf;
    private final int length;
    private final PageHeader header;
    private final String where;

    private Page(ByteBuffer buf, PageHeader header, String where) {
        this.buf = buf;
        this.length = buf.limit();
        this.header = header;
        this.where = where;
    }

    /** Wraps bytes starting with a page header; {@code where} names the page in messages. */
    static Page of(ByteBuffer bytes, String where) throws BoltFormatException {
        ByteBuffer buf = bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
        if (buf.limit() < PageHeader.SIZE) {
            throw new BoltFormatException(where + ": " + buf.limit() + " bytes cannot hold a page header");
        }
        PageHeader header = PageHeader.read(buf, 0);
        long elementsEnd = PageHeader.SIZE + (long) ELEMENT_SIZE * header.count();
        boolean tree = header.flags() == PageHeader.LEAF || header.flags() == PageHeader.BRANCH;
        if (tree && elementsEnd > buf.limit()) {
            throw new BoltFormatException(
                    where + ": " + header.count() + " elements do not fit in " + buf.limit() + " bytes");
        }
        return new Page(buf, header, where);
    }

    PageHeader header() {
        return header;
    }

    int count() {
        return header.count();
    }

    boolean isLeaf() {
        return header.flags() == PageHeader.LEAF;
    }

    boolean isBranch() {
        return header.flags() == PageHeader.BRANCH;
    }

    String where() {
        return where;
    }

    /** Bytes in the page (with its overflow pages). */
    int length() {
        return length;
    }

    /** The little-endian u64 at {@code offset}; the caller checks the bounds. */
    long u64(int offset) {
        return buf.getLong(offset);
    }

    int leafFlags(int i) {
        return buf.getInt(elementOffset(i));
    }

    byte[] leafKey(int i) throws BoltFormatException {
        int e = elementOffset(i);
        return bytes(e, buf.getInt(e + 4), buf.getInt(e + 8), buf.getInt(e + 12), false, i);
    }

    byte[] leafValue(int i) throws BoltFormatException {
        int e = elementOffset(i);
        return bytes(e, buf.getInt(e + 4), buf.getInt(e + 8), buf.getInt(e + 12), true, i);
    }

    byte[] branchKey(int i) throws BoltFormatException {
        int e = elementOffset(i);
        return bytes(e, buf.getInt(e), buf.getInt(e + 4), 0, false, i);
    }

    long branchPgid(int i) {
        return buf.getLong(elementOffset(i) + 8);
    }

    private int elementOffset(int i) {
        if (i < 0 || i >= header.count()) {
            throw new IndexOutOfBoundsException(i);
        }
        return PageHeader.SIZE + ELEMENT_SIZE * i;
    }

    /** A copy of the key, or of the value that follows it, after checking both lie inside the page. */
    private byte[] bytes(int element, int pos, int ksize, int vsize, boolean value, int i) throws BoltFormatException {
        long keyStart = element + Integer.toUnsignedLong(pos);
        long k = Integer.toUnsignedLong(ksize);
        long v = Integer.toUnsignedLong(vsize);
        long end = keyStart + k + v;
        if (end > length) {
            throw new BoltFormatException(where + ": element " + i + " points outside the page (ends at " + end + " of "
                    + length + " bytes)");
        }
        long start = value ? keyStart + k : keyStart;
        int n = (int) (value ? v : k);
        byte[] out = new byte[n];
        buf.get((int) start, out);
        return out;
    }
}
