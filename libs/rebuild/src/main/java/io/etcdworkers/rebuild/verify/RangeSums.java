package io.etcdworkers.rebuild.verify;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@link KeySum} of every range {@link KeyBounds} cut a keyspace into, as the fold computed
 * it: what each range etcd serves must add up to, and (all ranges together) what the written
 * database holds.
 */
public final class RangeSums {
    private final List<KeySum> ranges;
    private final KeySum total;

    private RangeSums(List<KeySum> ranges) {
        this.ranges = List.copyOf(ranges);
        this.total = new KeySum();
        ranges.forEach(total::add);
    }

    /** Ranges: {@code bounds.size() + 1}, in key order. */
    public int size() {
        return ranges.size();
    }

    public KeySum range(int index) {
        return ranges.get(index);
    }

    /** Every key. */
    public KeySum total() {
        return total;
    }

    /** Takes the keys in ascending order, each with the index of the range it falls in. */
    public static final class Builder {
        private final KeyHasher hasher = new KeyHasher();
        private final List<KeySum> ranges = new ArrayList<>();

        public void add(int range, byte[] key, byte[] value, long create, long mod, long version, long lease) {
            if (range < ranges.size() - 1) {
                throw new IllegalArgumentException("ranges must be given in ascending order");
            }
            while (ranges.size() <= range) {
                ranges.add(new KeySum());
            }
            hasher.addTo(ranges.get(range), key, value, create, mod, version, lease);
        }

        /** The sums of {@code bounds}' ranges (a range without keys sums to nothing). */
        public RangeSums build(KeyBounds bounds) {
            int count = bounds.size() + 1;
            if (ranges.size() > count) {
                throw new IllegalArgumentException("keys in " + ranges.size() + " ranges, bounds make " + count);
            }
            while (ranges.size() < count) {
                ranges.add(new KeySum());
            }
            return new RangeSums(ranges);
        }
    }
}
