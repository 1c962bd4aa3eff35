package io.etcdworkers.bolt;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Where a bucket's tree lives. A bucket value is {@code root pgid u64, sequence u64}; root 0
 * means an inline bucket whose leaf page (header and elements) follows those 16 bytes inside
 * the value itself.
 *
 * @param root the root page, or 0 for an inline bucket
 * @param sequence the bucket's sequence number
 * @param inline the inline leaf page, or null
 */
record BucketRef(long root, long sequence, Page inline) {
    static final int HEADER_SIZE = 16;

    static BucketRef decode(byte[] value, String where) throws BoltFormatException {
        if (value.length < HEADER_SIZE) {
            throw new BoltFormatException(
                    where + ": bucket value of " + value.length + " bytes is shorter than " + HEADER_SIZE);
        }
        ByteBuffer b = ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN);
        long root = b.getLong(0);
        long sequence = b.getLong(8);
        if (root != 0) {
            return new BucketRef(root, sequence, null);
        }
        Page page = Page.of(b.position(HEADER_SIZE), where + " (inline)");
        if (!page.isLeaf()) {
            throw new BoltFormatException(where + " (inline): page flags "
                    + PageHeader.flagName(page.header().flags()) + ", expected leaf");
        }
        return new BucketRef(0, sequence, page);
    }

    static byte[] encode(long root, long sequence) {
        return ByteBuffer.allocate(HEADER_SIZE)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(root)
                .putLong(sequence)
                .array();
    }
}
