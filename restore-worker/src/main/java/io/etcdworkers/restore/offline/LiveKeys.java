package io.etcdworkers.restore.offline;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every live key of the fold with its latest metadata; values live in a {@link ValueSpill}.
 * Memory grows with the number of live keys (about {@link #HEAP_BYTES_PER_KEY} bytes plus the
 * key each, measured), never with the number of events folded; past the fold's budget the keys
 * move to partitions on disk ({@link EventPartitions}).
 */
final class LiveKeys implements FoldedKeys {
    /** Heap a live key costs beyond its bytes: map entry, record, key array, and the sort at the end (measured). */
    static final long HEAP_BYTES_PER_KEY = 150;
    /** Rewrite the spill once it holds this many times the live bytes (and at least the minimum). */
    static final int SPILL_GARBAGE_FACTOR = 3;
    static final long SPILL_MIN_COMPACT_BYTES = 256L * 1024 * 1024;

    private Map<KeyBytes, LiveKey> keys = new HashMap<>();
    private final Path spillDir;
    private ValueSpill spill;
    private long liveValueBytes;
    private long liveKeyBytes;
    private int spillGeneration;
    private int spillRewrites;

    LiveKeys(Path spillDir) throws IOException {
        this.spillDir = spillDir;
        this.spill = newSpill();
    }

    LiveKey get(byte[] key) {
        return keys.get(new KeyBytes(key));
    }

    void put(byte[] key, byte[] value, long create, long mod, int sub, long version, long lease) throws IOException {
        long offset = spill.append(value);
        LiveKey previous = keys.put(new KeyBytes(key),
                new LiveKey(key, create, mod, sub, version, lease, offset, value.length));
        liveValueBytes += value.length - (previous == null ? 0 : previous.valueLength());
        if (previous == null) {
            liveKeyBytes += key.length;
        }
        maybeCompactSpill();
    }

    /** @return the removed key, or null when it was not live */
    LiveKey remove(byte[] key) {
        LiveKey removed = keys.remove(new KeyBytes(key));
        if (removed != null) {
            liveValueBytes -= removed.valueLength();
            liveKeyBytes -= removed.key().length;
        }
        return removed;
    }

    @Override
    public long size() {
        return keys.size();
    }

    /** What the live keys cost on the heap, by the measured rule. */
    long heapEstimate() {
        return keys.size() * HEAP_BYTES_PER_KEY + liveKeyBytes;
    }

    long liveValueBytes() {
        return liveValueBytes;
    }

    int spillRewrites() {
        return spillRewrites;
    }

    byte[] value(LiveKey key) throws IOException {
        return spill.read(key.valueOffset(), key.valueLength());
    }

    /** A snapshot of the live keys in the given order. */
    List<LiveKey> sorted(Comparator<LiveKey> order) {
        List<LiveKey> all = new ArrayList<>(keys.values());
        all.sort(order);
        return all;
    }

    @Override
    public Set<Long> leaseIds() {
        Set<Long> leases = new HashSet<>();
        for (LiveKey k : keys.values()) {
            if (k.lease() != 0) {
                leases.add(k.lease());
            }
        }
        return leases;
    }

    @Override
    public void byRevision(Visitor visitor) throws IOException {
        visit(sorted(LiveKey::byRevision), visitor);
    }

    @Override
    public void byKey(Visitor visitor) throws IOException {
        visit(sorted((a, b) -> Arrays.compareUnsigned(a.key(), b.key())), visitor);
    }

    /** Every live key, values loaded, in the order of their values in the spill (the cheapest to read). */
    void inSpillOrder(Visitor visitor) throws IOException {
        visit(sorted(Comparator.comparingLong(LiveKey::valueOffset)), visitor);
    }

    private void visit(List<LiveKey> order, Visitor visitor) throws IOException {
        for (LiveKey k : order) {
            visitor.visit(new FoldedKey(k.key(), value(k), k.create(), k.mod(), k.sub(), k.version(), k.lease()));
        }
    }

    private void maybeCompactSpill() throws IOException {
        long size = spill.size();
        if (size >= SPILL_MIN_COMPACT_BYTES && size > SPILL_GARBAGE_FACTOR * liveValueBytes) {
            compactSpill();
        }
    }

    /** Copies the live values into a fresh spill file, in file order, and drops the old one. */
    void compactSpill() throws IOException {
        ValueSpill fresh = newSpill();
        List<LiveKey> all = sorted(Comparator.comparingLong(LiveKey::valueOffset));
        for (LiveKey k : all) {
            long offset = fresh.append(spill.read(k.valueOffset(), k.valueLength()));
            keys.put(new KeyBytes(k.key()), k.movedTo(offset));
        }
        spill.close();
        spill = fresh;
        spillRewrites++;
    }

    /** Drops every key and its values (heap and spill file): the fold moved them elsewhere. */
    void release() throws IOException {
        keys = new HashMap<>();
        liveValueBytes = 0;
        liveKeyBytes = 0;
        spill.close();
        spill = newSpill();
    }

    private ValueSpill newSpill() throws IOException {
        return new ValueSpill(spillDir.resolve("values-" + (spillGeneration++) + ".spill"));
    }

    @Override
    public void close() throws IOException {
        spill.close();
    }

    /** A key as a map key: compared by content. */
    private record KeyBytes(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof KeyBytes k && Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }
}
