package io.etcdworkers.bolt;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The meta record at offset 16 of pages 0 and 1 (little-endian): {@code magic u32 = 0xED0CDAED,
 * version u32 = 2, pageSize u32, flags u32, root bucket {root pgid u64, sequence u64}, freelist
 * pgid u64, pgid u64, txid u64, checksum u64}. {@code pgid} is the high-water mark: the number of
 * pages in use. The checksum is FNV-1a 64 over the 56 bytes before it. A reader uses the valid
 * meta with the highest txid. A freelist pgid of all ones means the freelist was not written
 * (bbolt's NoFreelistSync, which etcd uses).
 */
record Meta(int pageSize, int flags, long root, long rootSequence, long freelist, long highWaterMark, long txid) {
    static final int MAGIC = 0xED0CDAED;
    static final int VERSION = 2;
    static final int SIZE = 64;
    static final int CHECKSUM_OFFSET = 56;
    static final long NO_FREELIST = -1L;
    static final int MIN_PAGE_SIZE = 512;
    static final int MAX_PAGE_SIZE = 1 << 20;

    /** Parses and validates the 64 bytes at {@code offset}; the message says what is wrong. */
    static Meta parse(ByteBuffer buf, int offset, String where) throws BoltFormatException {
        ByteBuffer b = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int magic = b.getInt(offset);
        if (magic != MAGIC) {
            throw new BoltFormatException(where + ": bad magic " + String.format("0x%08x", magic));
        }
        int version = b.getInt(offset + 4);
        if (version != VERSION) {
            throw new BoltFormatException(where + ": unsupported version " + version);
        }
        long stored = b.getLong(offset + CHECKSUM_OFFSET);
        long computed = fnv1a64(b, offset, CHECKSUM_OFFSET);
        if (stored != computed) {
            throw new BoltFormatException(where + ": checksum mismatch");
        }
        int pageSize = b.getInt(offset + 8);
        if (pageSize < MIN_PAGE_SIZE || pageSize > MAX_PAGE_SIZE || Integer.bitCount(pageSize) != 1) {
            throw new BoltFormatException(where + ": implausible page size " + Integer.toUnsignedString(pageSize));
        }
        return new Meta(
                pageSize,
                b.getInt(offset + 12),
                b.getLong(offset + 16),
                b.getLong(offset + 24),
                b.getLong(offset + 32),
                b.getLong(offset + 40),
                b.getLong(offset + 48));
    }

    /** Writes the record, checksum included, at {@code offset} of a little-endian buffer. */
    void write(ByteBuffer buf, int offset) {
        buf.putInt(offset, MAGIC);
        buf.putInt(offset + 4, VERSION);
        buf.putInt(offset + 8, pageSize);
        buf.putInt(offset + 12, flags);
        buf.putLong(offset + 16, root);
        buf.putLong(offset + 24, rootSequence);
        buf.putLong(offset + 32, freelist);
        buf.putLong(offset + 40, highWaterMark);
        buf.putLong(offset + 48, txid);
        buf.putLong(offset + CHECKSUM_OFFSET, fnv1a64(buf, offset, CHECKSUM_OFFSET));
    }

    boolean hasFreelist() {
        return freelist != NO_FREELIST;
    }

    static long fnv1a64(ByteBuffer buf, int offset, int length) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < length; i++) {
            h ^= buf.get(offset + i) & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }
}
