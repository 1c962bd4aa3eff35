package io.etcdworkers.restore.store;

import com.azure.core.exception.HttpResponseException;
import io.etcdworkers.restore.store.AzureErrorTranslator.Target;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The SDK's blob stream with its failures classified: each chunk is a request of its own, so a
 * chunk that fails after the SDK's retries is a store failure ({@link AzureErrorTranslator}: a
 * blob deleted or overwritten meanwhile is {@code OBJECT_VANISHED}, a store that stays down
 * {@code STORE_UNAVAILABLE}), not a body cut short. Wrapped in a {@link LengthCheckedInputStream},
 * which catches a stream that ends early.
 */
final class AzureBodyStream extends FilterInputStream {
    private final AzureErrorTranslator errors;
    private final String action;

    AzureBodyStream(InputStream in, AzureErrorTranslator errors, String action) {
        super(in);
        this.errors = errors;
        this.action = action;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
        try {
            return super.read(buf, off, len);
        } catch (IOException e) {
            // The SDK wraps a failed chunk request in an IOException; a plain transport failure
            // stays an IOException, which the length check reports as a body that broke off.
            if (hasResponse(e)) {
                throw errors.translate(e, action, Target.BLOB);
            }
            throw e;
        } catch (RuntimeException e) {
            throw errors.translate(e, action, Target.BLOB);
        }
    }

    @Override
    public long skip(long n) throws IOException {
        try {
            return super.skip(n);
        } catch (RuntimeException e) {
            throw errors.translate(e, action, Target.BLOB);
        }
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    private static boolean hasResponse(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof HttpResponseException) {
                return true;
            }
        }
        return false;
    }
}
