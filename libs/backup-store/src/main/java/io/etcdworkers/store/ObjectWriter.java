package io.etcdworkers.store;

import java.io.OutputStream;

/**
 * An object being written. Write to {@link #out()}; then {@link #commit()} makes it visible
 * at once and whole. {@link #close()} aborts when no commit happened (a multipart upload is
 * aborted, a temp file deleted), so try-with-resources never leaves a partial object.
 */
public interface ObjectWriter extends AutoCloseable {

    /**
     * Where the bytes go. Closing this stream does not commit (so compressors wrapped around it
     * may be closed freely); it only flushes.
     */
    OutputStream out();

    /** Finishes the upload and returns the object as the store now lists it. */
    ObjectInfo commit();

    /** Aborts unless committed; idempotent. */
    @Override
    void close();
}
