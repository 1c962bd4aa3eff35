package io.etcdworkers.rebuild.verify;

import java.util.Objects;

/**
 * An order-free fingerprint of a set of keys: how many, and the sum (modulo 2^64, in two lanes)
 * of each key's 128-bit {@link KeyHasher hash}. Two sides that visit the same keys in any order
 * (the fold in key order, the database file in revision order, etcd range by range) arrive at the
 * same sum; a key missing, added, twice, or with any field changed changes it.
 */
public final class KeySum {
    private long keys;
    private long high;
    private long low;

    /** Adds one key's hash. */
    void add(long hashHigh, long hashLow) {
        keys++;
        high += hashHigh;
        low += hashLow;
    }

    /** Adds what another sum holds (the sum of both sets). */
    public void add(KeySum other) {
        keys += other.keys;
        high += other.high;
        low += other.low;
    }

    public long keys() {
        return keys;
    }

    /** The fingerprint as text: the key count and both lanes in hex. */
    @Override
    public String toString() {
        return keys + ":" + String.format("%016x%016x", high, low);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeySum s && s.keys == keys && s.high == high && s.low == low;
    }

    @Override
    public int hashCode() {
        return Objects.hash(keys, high, low);
    }
}
