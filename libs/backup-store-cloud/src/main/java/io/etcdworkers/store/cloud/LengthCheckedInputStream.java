package io.etcdworkers.store.cloud;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.Abortable;

/**
 * An object body that must deliver exactly {@code expected} bytes. A body that ends early or
 * breaks off fails with {@link ErrorCode#TRUNCATED_OBJECT} (unchecked, so a decompressor
 * wrapped around it cannot mistake it for corrupt content); a checksum failure of the SDK
 * fails with {@link ErrorCode#STORE_UNAVAILABLE}.
 *
 * <p>Apache's client already throws when a Content-Length body is cut short; the count here
 * also covers ranges (where the length is ours, not the server's) and any transport that
 * would report a plain end of stream.
 */
public final class LengthCheckedInputStream extends FilterInputStream {
    private final long expected;
    private final String what;
    private long count;

    /**
     * @param in the body; when {@link Abortable}, closing early aborts the connection instead
     *     of draining the rest of a large object
     * @param what names the store and the object for messages
     */
    public LengthCheckedInputStream(InputStream in, long expected, String what) {
        super(in);
        this.expected = expected;
        this.what = what;
    }

    @Override
    public int read() throws IOException {
        int b = guarded(() -> super.read());
        if (b < 0) {
            checkComplete();
        } else {
            count++;
        }
        return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
        int n = guarded(() -> super.read(buf, off, len));
        if (n < 0) {
            checkComplete();
        } else {
            count += n;
            if (count > expected) {
                throw new WorkerException(
                        ErrorCode.STORE_UNAVAILABLE,
                        what + ": the store sent more than the " + expected + " bytes announced");
            }
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        // Skipping in chunks keeps the count exact without a long-valued twin of guarded().
        int skipped = guarded(() -> (int) super.skip(Math.min(n, Integer.MAX_VALUE)));
        count += skipped;
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    @Override
    public void close() throws IOException {
        if (count < expected && in instanceof Abortable abortable) {
            abortable.abort();
        }
        super.close();
    }

    private void checkComplete() {
        if (count < expected) {
            throw new WorkerException(
                    ErrorCode.TRUNCATED_OBJECT,
                    what + ": the body ended after " + count + " of " + expected + " bytes");
        }
    }

    private int guarded(IoRead read) {
        try {
            return read.read();
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.TRUNCATED_OBJECT,
                    what + ": the body broke off after "
                            + count + " of " + expected + " bytes ("
                            + e.getClass().getSimpleName() + ": "
                            + e.getMessage() + ")",
                    e);
        } catch (SdkException e) {
            throw new WorkerException(
                    ErrorCode.STORE_UNAVAILABLE,
                    what + ": reading the body failed after " + count + " of " + expected + " bytes (" + e.getMessage()
                            + ")",
                    e);
        }
    }

    @FunctionalInterface
    private interface IoRead {
        int read() throws IOException;
    }
}
