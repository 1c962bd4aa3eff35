package io.etcdworkers.rebuild.offline;

import io.etcdworkers.files.ValueFile;
import io.etcdworkers.files.ValueRef;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every live key of the fold with its latest metadata; values stay in {@link ValueFile}s. A
 * delta's values stay where the fetch thread decoded them (the key points into the delta's value
 * file, nothing is copied); values the fold holds itself (the base's, a partition's) go to a spill
 * file. A delta file goes as soon as no live key points into it. Memory grows with the number of
 * live keys (about {@link #HEAP_BYTES_PER_KEY} bytes plus the key each, measured), never with the
 * number of events folded; past the fold's budget the keys move to partitions on disk ({@link
 * EventPartitions}).
 *
 * <p>The disk the values take is bounded the same way: once the files live keys point into hold
 * {@value #GARBAGE_FACTOR} times the live bytes (and at least {@link #MIN_COMPACT_BYTES}), the
 * live values of the files with the most garbage are copied into the spill and those files go
 * ({@link #compact}). So is the number of open files: past {@value #MAX_FILES} delta files, the
 * live values of those with the fewest move into the spill.
 */
final class LiveKeys implements FoldedKeys {
    /** Heap a live key costs beyond its bytes: map entry, record, key array, and the sort at the end (measured). */
    static final long HEAP_BYTES_PER_KEY = 150;
    /** Compact once the value files hold this many times the live bytes (and at least the minimum). */
    static final int GARBAGE_FACTOR = 3;

    static final long MIN_COMPACT_BYTES = 256L * 1024 * 1024;
    /** Delta files live keys may point into (each an open file) before their values move into the spill. */
    static final int MAX_FILES = 128;

    private static final byte[] EMPTY = new byte[0];

    private Map<KeyBytes, LiveKey> keys = new HashMap<>();
    private final Path spillDir;
    private final long minCompactBytes;
    private final int maxFiles;
    private ValueFile spill;
    /** Every delta file a live key points into. */
    private final Set<ValueFile> files = Collections.newSetFromMap(new IdentityHashMap<>());

    private long filesBytes;
    private long liveValueBytes;
    private long liveKeyBytes;
    private int spillGeneration;
    private int compactions;

    LiveKeys(Path spillDir) throws IOException {
        this(spillDir, MIN_COMPACT_BYTES, MAX_FILES);
    }

    /** With other thresholds than the fold's, for tests that cannot write a quarter of a gigabyte. */
    LiveKeys(Path spillDir, long minCompactBytes, int maxFiles) throws IOException {
        this.spillDir = spillDir;
        this.minCompactBytes = minCompactBytes;
        this.maxFiles = maxFiles;
        this.spill = newSpill();
    }

    LiveKey get(byte[] key) {
        return keys.get(new KeyBytes(key));
    }

    /** Appends a value the fold holds to the spill, for {@link #put}. */
    ValueRef store(byte[] value) throws IOException {
        return spill.append(value);
    }

    void put(byte[] key, ValueRef value, long create, long mod, int sub, long version, long lease) throws IOException {
        ValueFile file = value.length() == 0 ? null : value.file();
        if (file != null) {
            hold(file, value.length());
        }
        LiveKey previous = keys.put(
                new KeyBytes(key),
                new LiveKey(key, create, mod, sub, version, lease, file, value.offset(), value.length()));
        liveValueBytes += value.length();
        if (previous == null) {
            liveKeyBytes += key.length;
        } else {
            drop(previous);
        }
        maybeCompact();
    }

    /** @return the removed key, or null when it was not live */
    LiveKey remove(byte[] key) throws IOException {
        LiveKey removed = keys.remove(new KeyBytes(key));
        if (removed != null) {
            liveKeyBytes -= removed.key().length;
            drop(removed);
        }
        return removed;
    }

    private void hold(ValueFile file, int length) {
        if (file != spill && file.liveValues() == 0 && files.add(file)) {
            filesBytes += file.size();
        }
        file.retain(length);
    }

    /** The key's value is no longer live. */
    private void drop(LiveKey k) throws IOException {
        liveValueBytes -= k.valueLength();
        unhold(k);
    }

    /** The key no longer points into its value's file: the file goes once nothing does. */
    private void unhold(LiveKey k) throws IOException {
        ValueFile file = k.values();
        if (file == null) {
            return;
        }
        file.release(k.valueLength());
        if (file.liveValues() == 0 && files.remove(file)) {
            filesBytes -= file.size();
        }
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

    /** Bytes of the files live keys point into (the spill's garbage included). */
    long valueFileBytes() {
        return filesBytes + spill.size();
    }

    /** Delta files live keys point into. */
    int deltaFiles() {
        return files.size();
    }

    /** How often values were moved into the spill to give disk or open files back. */
    int compactions() {
        return compactions;
    }

    byte[] value(LiveKey key) throws IOException {
        return key.values() == null ? EMPTY : key.values().read(key.valueOffset(), key.valueLength());
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

    /** Every value file's buffered bytes written: from now on reading a value writes nothing. */
    @Override
    public void settle() throws IOException {
        spill.flushPending();
        for (ValueFile f : files) {
            f.flushPending();
        }
    }

    /** Every live key, values loaded, file by file in the order of their values (the cheapest to read). */
    void inValueOrder(Visitor visitor) throws IOException {
        visit(inFileOrder(keys.values()), visitor);
    }

    private void visit(List<LiveKey> order, Visitor visitor) throws IOException {
        for (LiveKey k : order) {
            visitor.visit(new FoldedKey(k.key(), value(k), k.create(), k.mod(), k.sub(), k.version(), k.lease()));
        }
    }

    /** {@code keys} grouped by the file of their value, each file's in offset order; empty values first. */
    private static List<LiveKey> inFileOrder(Collection<LiveKey> keys) {
        Map<ValueFile, List<LiveKey>> byFile = new LinkedHashMap<>();
        List<LiveKey> out = new ArrayList<>(keys.size());
        for (LiveKey k : keys) {
            if (k.values() == null) {
                out.add(k);
            } else {
                byFile.computeIfAbsent(k.values(), f -> new ArrayList<>()).add(k);
            }
        }
        for (List<LiveKey> ofFile : byFile.values()) {
            ofFile.sort(Comparator.comparingLong(LiveKey::valueOffset));
            out.addAll(ofFile);
        }
        return out;
    }

    private void maybeCompact() throws IOException {
        long held = valueFileBytes();
        if (held >= minCompactBytes && held > GARBAGE_FACTOR * liveValueBytes) {
            compact(false);
        } else if (files.size() > maxFiles) {
            compact(true);
        }
    }

    /**
     * Gives disk back ({@code forFiles}: open files) by copying the live values of some files
     * into the spill and letting those files go. For disk, the files with the most garbage per
     * live byte go first, until the files hold at most {@code GARBAGE_FACTOR - 1} times the live
     * bytes: few values are copied, and only those of files that are mostly garbage. For open
     * files, the delta files with the fewest live bytes go until half the limit is left. When the
     * spill itself is chosen, its live values and the moved ones go to a fresh spill and the old
     * one goes.
     */
    void compact(boolean forFiles) throws IOException {
        Set<ValueFile> evacuate = Collections.newSetFromMap(new IdentityHashMap<>());
        if (forFiles) {
            List<ValueFile> fewestLive = new ArrayList<>(files);
            fewestLive.sort(Comparator.comparingLong(ValueFile::liveBytes));
            evacuate.addAll(fewestLive.subList(0, Math.max(0, fewestLive.size() - maxFiles / 2)));
        } else {
            List<ValueFile> candidates = new ArrayList<>(files);
            candidates.add(spill);
            candidates.sort(Comparator.comparingDouble(f -> (double) f.liveBytes() / Math.max(1, f.size())));
            long held = valueFileBytes();
            long target = (GARBAGE_FACTOR - 1) * liveValueBytes;
            for (ValueFile f : candidates) {
                if (held <= target) {
                    break;
                }
                evacuate.add(f);
                held -= f.size() - f.liveBytes();
            }
        }
        ValueFile old = spill;
        boolean freshSpill = evacuate.contains(old);
        if (freshSpill) {
            spill = newSpill();
        }
        List<LiveKey> moving = new ArrayList<>();
        for (LiveKey k : keys.values()) {
            if (k.values() != null && evacuate.contains(k.values())) {
                moving.add(k);
            }
        }
        for (LiveKey k : inFileOrder(moving)) {
            ValueRef moved = spill.append(k.values().read(k.valueOffset(), k.valueLength()));
            hold(spill, k.valueLength());
            keys.put(new KeyBytes(k.key()), k.movedTo(spill, moved.offset()));
            unhold(k);
        }
        if (freshSpill) {
            old.seal();
        }
        compactions++;
    }

    /** Drops every key and its values (heap and files): the fold moved them elsewhere. */
    void release() throws IOException {
        for (LiveKey k : keys.values()) {
            drop(k);
        }
        keys = new HashMap<>();
        liveValueBytes = 0;
        liveKeyBytes = 0;
        spill.close();
        spill = newSpill();
    }

    private ValueFile newSpill() throws IOException {
        return ValueFile.create(spillDir.resolve("values-" + (spillGeneration++) + ".spill"));
    }

    @Override
    public void close() throws IOException {
        IOException failed = null;
        for (ValueFile f : new ArrayList<>(files)) {
            try {
                f.close();
            } catch (IOException e) {
                failed = failed == null ? e : failed;
            }
        }
        files.clear();
        spill.close();
        if (failed != null) {
            throw failed;
        }
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
