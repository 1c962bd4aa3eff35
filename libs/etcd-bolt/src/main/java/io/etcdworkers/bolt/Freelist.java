package io.etcdworkers.bolt;

/**
 * The freelist page: page ids (u64) after the header; the header's count, or when it is
 * 0xFFFF, the first u64, says how many.
 */
final class Freelist {
    static final int COUNT_OVERFLOW = 0xFFFF;

    private Freelist() {}

    static long[] ids(Page page) throws BoltFormatException {
        long count = page.count();
        int first = PageHeader.SIZE;
        if (count == COUNT_OVERFLOW) {
            if (page.length() < PageHeader.SIZE + 8) {
                throw new BoltFormatException(page.where() + ": freelist too short for its count");
            }
            count = page.u64(PageHeader.SIZE);
            first += 8;
        }
        if (count < 0 || count > (page.length() - first) / 8) {
            throw new BoltFormatException(
                    page.where() + ": " + Long.toUnsignedString(count) + " freelist ids do not fit in the page");
        }
        long[] ids = new long[(int) count];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = page.u64(first + 8 * i);
        }
        return ids;
    }
}
