package io.etcdworkers.bolt;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * Serializes a node as bbolt does: header, all elements, then each element's key (and value),
 * in element order; the page is padded to whole pages, {@code overflow = pages - 1}.
 */
final class PageEncoder {
    private PageEncoder() {}

    /** Bytes the node needs before padding. */
    static long size(List<NodeBuilder.Element> elements) {
        long size = PageHeader.SIZE;
        for (NodeBuilder.Element e : elements) {
            size += e.size();
        }
        return size;
    }

    /** The padded page with id 0 (the sink sets it). */
    static ByteBuffer encode(List<NodeBuilder.Element> elements, boolean leaf, int pageSize) throws IOException {
        long size = size(elements);
        long pages = (size + pageSize - 1) / pageSize;
        if (pages * pageSize > PageFile.MAX_PAGE_BYTES) {
            throw new IOException("a node of " + size + " bytes is larger than a page may be");
        }
        if (elements.size() >= 0xFFFF) {
            throw new IOException(elements.size() + " elements do not fit in one page's u16 count");
        }
        ByteBuffer buf = ByteBuffer.allocate((int) (pages * pageSize)).order(ByteOrder.LITTLE_ENDIAN);
        PageHeader.write(buf, 0, 0, leaf ? PageHeader.LEAF : PageHeader.BRANCH, elements.size(), pages - 1);
        int data = PageHeader.SIZE + Page.ELEMENT_SIZE * elements.size();
        for (int i = 0; i < elements.size(); i++) {
            NodeBuilder.Element e = elements.get(i);
            int at = PageHeader.SIZE + Page.ELEMENT_SIZE * i;
            int pos = data - at;
            if (leaf) {
                buf.putInt(at, e.flags());
                buf.putInt(at + 4, pos);
                buf.putInt(at + 8, e.key().length);
                buf.putInt(at + 12, e.value().length);
            } else {
                buf.putInt(at, pos);
                buf.putInt(at + 4, e.key().length);
                buf.putLong(at + 8, e.pgid());
            }
            buf.put(data, e.key());
            data += e.key().length;
            if (leaf) {
                buf.put(data, e.value());
                data += e.value().length;
            }
        }
        return buf;
    }
}
