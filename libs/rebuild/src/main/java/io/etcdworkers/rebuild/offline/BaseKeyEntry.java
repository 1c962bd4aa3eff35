package io.etcdworkers.rebuild.offline;

/**
 * One entry of etcd's {@code key} bucket, decoded: the bucket key is the revision ({@code main}
 * and {@code sub}, 8 bytes big-endian each around a {@code '_'}, plus a {@code 't'} for a
 * deletion) and the value an {@code mvccpb.KeyValue}.
 */
record BaseKeyEntry(
        long main, int sub, boolean tombstone, byte[] key, byte[] value, long create, long version, long lease) {}
