package io.etcdworkers.bolt;

import java.nio.ByteBuffer;

/**
 * The 16-byte header every bbolt page starts with (little-endian): {@code id u64, flags u16,
 * count u16, overflow u32}. A page spans {@code (1 + overflow) * pageSize} bytes; only the first
 * of those pages has a header.
 */
record PageHeader(long id, int flags, int count, long overflow) {
    static final int SIZE = 16;
    static final int BRANCH = 0x01;
    static final int LEAF = 0x02;
    static final int META = 0x04;
    static final int FREELIST = 0x10;

    /** Reads a header at {@code offset} of a little-endian buffer. */
    static PageHeader read(ByteBuffer buf, int offset) {
        return new PageHeader(
                buf.getLong(offset),
                Short.toUnsignedInt(buf.getShort(offset + 8)),
                Short.toUnsignedInt(buf.getShort(offset + 10)),
                Integer.toUnsignedLong(buf.getInt(offset + 12)));
    }

    static void write(ByteBuffer buf, int offset, long id, int flags, int count, long overflow) {
        buf.putLong(offset, id);
        buf.putShort(offset + 8, (short) flags);
        buf.putShort(offset + 10, (short) count);
        buf.putInt(offset + 12, (int) overflow);
    }

    static String flagName(int flags) {
        return switch (flags) {
            case BRANCH -> "branch";
            case LEAF -> "leaf";
            case META -> "meta";
            case FREELIST -> "freelist";
            default -> String.format("0x%x", flags);
        };
    }
}
