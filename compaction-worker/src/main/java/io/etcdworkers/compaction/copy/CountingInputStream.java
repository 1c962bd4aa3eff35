package io.etcdworkers.compaction.copy;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Counts the bytes read through it; skipping reads too. */
final class CountingInputStream extends FilterInputStream {
    private long count;

    CountingInputStream(InputStream in) {
        super(in);
    }

    long count() {
        return count;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            count++;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            count += n;
        }
        return n;
    }

    /** Reads what it skips, so a digest beneath sees every byte. */
    @Override
    public long skip(long n) throws IOException {
        byte[] buf = new byte[(int) Math.min(Math.max(n, 0), 8192)];
        long skipped = 0;
        while (skipped < n) {
            int r = read(buf, 0, (int) Math.min(buf.length, n - skipped));
            if (r < 0) {
                break;
            }
            skipped += r;
        }
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }
}
