package io.etcdworkers.rebuild.verify;

import io.etcdworkers.bolt.BoltReader;
import io.etcdworkers.etcd.schema.Bucket;
import io.etcdworkers.format.DeltaDecoder;
import io.etcdworkers.format.DeltaEvent;
import io.etcdworkers.format.EventType;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What a rebuild of a backup needs in memory, estimated from the backup before it runs
 * ({@code verify-backup --estimate-memory}), by the sizing rule measured in docs/tuning.md: the
 * verifying etcd maps the database and keeps about {@value #ETCD_BYTES_PER_KEY} bytes per key
 * of index; the worker's heap holds the fold's live keys, about {@value #HEAP_BYTES_PER_KEY}
 * bytes each plus the key, over a fixed {@value #HEAP_BASE_MIB} MiB, but never more than {@value
 * #HEAP_AT_MOST_MIB} MiB: past its budget the fold moves its keys to partitions on disk, which
 * measured faster at 3,000,000 keys than a heap that holds them; the JVM's RSS is about {@value
 * #JVM_ABOVE_HEAP_MIB} MiB above its heap; and a quarter to spare.
 *
 * <p>The keys are an upper bound: every entry of the base's key bucket (its live keys, plus their
 * history when the base was not compacted) and every put that creates a key in the deltas, as if
 * nothing were deleted. The database grows by what those puts bring; values that grow in place
 * are not foreseen (the margin covers modest growth).
 *
 * @param baseDatabaseBytes the base's database, decompressed
 * @param baseEntries entries of the base's {@code key} bucket
 * @param baseKeyBytes their keys' length
 * @param createdKeys puts in the deltas that create a key (version 1)
 * @param createdKeyBytes their keys' length
 * @param createdValueBytes their values' length
 */
public record SizeEstimate(
        long baseDatabaseBytes,
        long baseEntries,
        long baseKeyBytes,
        long createdKeys,
        long createdKeyBytes,
        long createdValueBytes) {
    static final long MIB = 1024 * 1024;
    static final long ETCD_BYTES_PER_KEY = 330;
    static final long HEAP_BYTES_PER_KEY = 150;
    static final long HEAP_BASE_MIB = 64;
    static final long HEAP_AT_MOST_MIB = 256;
    static final long JVM_ABOVE_HEAP_MIB = 100;
    /** The revision key, the KeyValue's other fields and bbolt's element header, per new key. */
    static final long DATABASE_BYTES_PER_NEW_KEY = 64;

    public long keysAtMost() {
        return baseEntries + createdKeys;
    }

    public long databaseBytesAtMost() {
        return baseDatabaseBytes + createdKeyBytes + createdValueBytes + createdKeys * DATABASE_BYTES_PER_NEW_KEY;
    }

    /** The verifying etcd: the database mapped, plus its index. */
    public long etcdBytes() {
        return databaseBytesAtMost() + ETCD_BYTES_PER_KEY * keysAtMost();
    }

    /** The JVM heap the fold needs: its keys on the heap, or, past {@value #HEAP_AT_MOST_MIB} MiB, partitioned. */
    public long heapBytes() {
        long keysOnHeap = HEAP_BASE_MIB * MIB + HEAP_BYTES_PER_KEY * keysAtMost() + baseKeyBytes + createdKeyBytes;
        return Math.min(keysOnHeap, HEAP_AT_MOST_MIB * MIB);
    }

    /** The container's memory limit: etcd, the heap and the JVM above it, a quarter to spare, in whole 64 MiB. */
    public long memoryLimitBytes() {
        long needed = etcdBytes() + heapBytes() + JVM_ABOVE_HEAP_MIB * MIB;
        long withMargin = needed + needed / 4;
        long step = 64 * MIB;
        return (withMargin + step - 1) / step * step;
    }

    /**
     * The heap's share of that limit, in percent (what {@code -XX:MaxRAMPercentage} takes), 10 to
     * 75: half as much again as the fold needs, from the limit's margin. A heap just above the live
     * keys makes the serial collector run all the time (measured at 3,000,000 keys: the fold took
     * 109 s in a heap 20 % above them, 61 s in one twice their size), and the fold's budget is two
     * thirds of the heap beyond 64 MiB.
     */
    public int heapPercent() {
        long percent = (heapBytes() * 150 + memoryLimitBytes() - 1) / memoryLimitBytes();
        return (int) Math.max(10, Math.min(75, percent));
    }

    /** Counts while {@code verify-backup} reads the backup. */
    public static final class Builder {
        private long baseDatabaseBytes;
        private long baseEntries;
        private long baseKeyBytes;
        private long createdKeys;
        private long createdKeyBytes;
        private long createdValueBytes;

        /** The base's key bucket, from the database file (while other threads count the deltas). */
        public void base(Path database, long databaseBytes) throws IOException {
            long[] entriesAndKeyBytes = new long[2];
            try (BoltReader db = BoltReader.open(database)) {
                if (db.hasBucket(Bucket.KEY.bytes())) {
                    db.forEach(Bucket.KEY.bytes(), (k, v, isBucket) -> {
                        if (!isBucket) {
                            entriesAndKeyBytes[0]++;
                            entriesAndKeyBytes[1] += DatabaseKeys.key(v).length;
                        }
                    });
                }
            }
            synchronized (this) {
                baseDatabaseBytes = databaseBytes;
                baseEntries = entriesAndKeyBytes[0];
                baseKeyBytes = entriesAndKeyBytes[1];
            }
        }

        /** Counts the puts of a delta that create keys, as it is decoded; deltas may be decoded on several threads. */
        public DeltaDecoder.GroupSink deltaSink() {
            return group -> {
                long keys = 0;
                long keyBytes = 0;
                long valueBytes = 0;
                for (DeltaEvent e : group.events()) {
                    if (e.type() == EventType.PUT && e.version() == 1) {
                        keys++;
                        keyBytes += e.key().length;
                        valueBytes += e.value().length;
                    }
                }
                synchronized (this) {
                    createdKeys += keys;
                    createdKeyBytes += keyBytes;
                    createdValueBytes += valueBytes;
                }
            };
        }

        public synchronized SizeEstimate build() {
            return new SizeEstimate(
                    baseDatabaseBytes, baseEntries, baseKeyBytes, createdKeys, createdKeyBytes, createdValueBytes);
        }
    }
}
