package io.etcdworkers.bolt;

import java.io.IOException;

/** Receives the entries of a bucket in key order. */
@FunctionalInterface
public interface EntryVisitor {
    /**
     * @param key the key (a fresh array the visitor may keep)
     * @param value the value (fresh array), or null when the entry is a nested bucket
     * @param isBucket whether the entry is a nested bucket
     */
    void visit(byte[] key, byte[] value, boolean isBucket) throws IOException;
}
