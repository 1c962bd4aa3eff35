package io.etcdworkers.store;

import java.io.InputStream;
import java.util.List;

/**
 * The few things the workers need from a bucket: list, read (whole or a range) and write an
 * object so that it only becomes visible complete.
 *
 * <p>Keys are relative to the container (the S3 bucket, or the local directory). Failures are
 * {@link io.etcdworkers.contract.WorkerException}s with a store error code and a message
 * that names the store ({@link #describe()}) and the key, never a credential.
 */
public interface ObjectStore extends AutoCloseable {

    /** A human description for messages, for example {@code S3 bucket "b" at http://...}. */
    String describe();

    /**
     * Every object whose key starts with {@code keyPrefix}, all pages, in no particular order.
     * Callers pass a prefix ending in {@code /} to stay out of sibling prefixes.
     */
    List<ObjectInfo> list(String keyPrefix);

    /** A stream over the whole object; the caller closes it. */
    InputStream open(String key);

    /** A stream over {@code length} bytes from {@code offset}; the caller closes it. */
    InputStream openRange(String key, long offset, long length);

    /**
     * Starts writing {@code key}. Nothing is visible under the key until
     * {@link ObjectWriter#commit()} returns; {@link ObjectWriter#close()} without a commit
     * aborts and leaves nothing behind.
     */
    ObjectWriter create(String key);

    @Override
    void close();
}
