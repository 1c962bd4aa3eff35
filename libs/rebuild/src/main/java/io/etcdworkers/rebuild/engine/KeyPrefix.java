package io.etcdworkers.rebuild.engine;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The keys a rebuild keeps: all of them, or those under one prefix (an {@code extract}). The
 * offline engine folds only these and writes a database that holds nothing else; the replay
 * rebuilds everything and the caller reads the prefix from its etcd.
 */
public final class KeyPrefix {
    /** Every key. */
    public static final KeyPrefix ALL = new KeyPrefix(new byte[0]);

    private final byte[] prefix;

    private KeyPrefix(byte[] prefix) {
        this.prefix = prefix;
    }

    /** The keys starting with {@code prefix} (UTF-8); the empty prefix is {@link #ALL}. */
    public static KeyPrefix of(String prefix) {
        return prefix.isEmpty() ? ALL : new KeyPrefix(prefix.getBytes(StandardCharsets.UTF_8));
    }

    public boolean isAll() {
        return prefix.length == 0;
    }

    public boolean matches(byte[] key) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }

    public byte[] bytes() {
        return prefix.clone();
    }

    /**
     * The first key after every key under the prefix (etcd's range end for a prefix read); {@code
     * {0}} (etcd: to the end) when the prefix is empty or all 0xff bytes.
     */
    public byte[] rangeEnd() {
        byte[] end = prefix.clone();
        for (int i = end.length - 1; i >= 0; i--) {
            if (end[i] != (byte) 0xff) {
                end[i]++;
                return Arrays.copyOf(end, i + 1);
            }
        }
        return new byte[] {0};
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyPrefix k && Arrays.equals(prefix, k.prefix);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(prefix);
    }

    @Override
    public String toString() {
        return isAll() ? "(all keys)" : new String(prefix, StandardCharsets.UTF_8);
    }
}
