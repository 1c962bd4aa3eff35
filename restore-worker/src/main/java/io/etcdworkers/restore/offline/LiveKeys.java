package io.etcdworkers.restore.offline;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every live key of the fold with its latest metadata; values live in a {@link ValueSpill}.
 * Memory grows with the number of live keys (about 100 bytes plus the key each), never with the
 * number of events folded.
 */
final class LiveKeys implements AutoCloseable {
    /** Rewrite the spill once it holds this many times the live bytes (and at least the minimum). */
    static final int SPILL_GARBAGE_FACTOR = 3;
    static final long SPILL_MIN_COMPACT_BYTES = 256L * 1024 * 1024;

    private final Map<KeyBytes, LiveKey> keys = new HashMap<>();
    private final Path spillDir;
    private ValueSpill spill;
    private long liveValueBytes;
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
        maybeCompactSpill();
    }

    /** @return the removed key, or null when it was not live */
    LiveKey remove(byte[] key) {
        LiveKey removed = keys.remove(new KeyBytes(key));
        if (removed != null) {
            liveValueBytes -= removed.valueLength();
        }
        return removed;
    }

    int size() {
        return keys.size();
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

    /** The live keys, in no particular order (a view: do not change the fold while iterating). */
    Iterable<LiveKey> all() {
        return java.util.Collections.unmodifiableCollection(keys.values());
    }

    /** A snapshot of the live keys in the given order. */
    List<LiveKey> sorted(Comparator<LiveKey> order) {
        List<LiveKey> all = new ArrayList<>(keys.values());
        all.sort(order);
        return all;
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
