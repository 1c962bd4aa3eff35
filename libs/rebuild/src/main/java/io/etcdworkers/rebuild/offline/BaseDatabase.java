package io.etcdworkers.rebuild.offline;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdworkers.bolt.BoltFormatException;
import io.etcdworkers.bolt.BoltReader;
import io.etcdworkers.etcd.schema.Bucket;
import io.etcdworkers.etcd.schema.MetaKey;
import io.etcdworkers.etcd.schema.Revision;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Reads what the fold needs from the base snapshot's database: every entry of the {@code key}
 * bucket in revision order (into the fold), the compaction revision, and the lease ids.
 * Anything that does not look like etcd's layout is a {@link BoltFormatException}: the engine
 * refuses rather than guess.
 */
final class BaseDatabase {
    private static final byte[] EMPTY = new byte[0];
    /** {@code mvccpb.KeyValue}'s fields: number << 3 | wire type (2 bytes, 0 varint). */
    private static final int KEY_TAG = 1 << 3 | 2;

    private static final int CREATE_TAG = 2 << 3;
    private static final int MOD_TAG = 3 << 3;
    private static final int VERSION_TAG = 4 << 3;
    private static final int VALUE_TAG = 5 << 3 | 2;
    private static final int LEASE_TAG = 6 << 3;

    private BaseDatabase() {}

    /**
     * What the base holds besides its keys.
     *
     * @param compactionPending meta's {@code scheduledCompactRev} is past its {@code
     *     finishedCompactRev}: etcd finishes that compaction when it opens the database
     */
    record Summary(long revision, long entries, Set<Long> leaseIds, boolean compactionPending) {}

    static Summary fold(BoltReader base, KeyspaceFold fold) throws IOException {
        for (Bucket required : new Bucket[] {Bucket.KEY, Bucket.META}) {
            if (!base.hasBucket(required.bytes())) {
                throw new BoltFormatException(
                        "the base database has no '" + required.label() + "' bucket: not an etcd v3 database");
            }
        }
        long[] entries = {0};
        base.forEach(Bucket.KEY.bytes(), (k, v, isBucket) -> {
            fold.baseEntry(entry(k, v, isBucket));
            entries[0]++;
        });
        Compaction compaction = compaction(base);
        fold.endBase(compaction.finished());
        Set<Long> leases = new HashSet<>();
        if (base.hasBucket(Bucket.LEASE.bytes())) {
            base.forEach(Bucket.LEASE.bytes(), (k, v, isBucket) -> {
                if (isBucket || k.length != 8) {
                    throw new BoltFormatException(
                            "unexpected entry in the lease bucket (key of " + k.length + " bytes)");
                }
                leases.add(EtcdValues.leaseId(k));
            });
        }
        return new Summary(fold.baseRevision(), entries[0], leases, compaction.pending());
    }

    static BaseKeyEntry entry(byte[] bucketKey, byte[] value, boolean isBucket) throws BoltFormatException {
        Optional<Revision> parsed = Revision.parse(bucketKey);
        if (isBucket
                || parsed.isEmpty()
                || parsed.get().sub() < 0
                || parsed.get().sub() > Integer.MAX_VALUE) {
            throw new BoltFormatException("unexpected entry in the key bucket: " + Arrays.toString(bucketKey));
        }
        Revision rev = parsed.get();
        boolean tombstone = Revision.isTombstone(bucketKey);
        try {
            return keyValue(rev.main(), (int) rev.sub(), tombstone, value);
        } catch (InvalidProtocolBufferException e) {
            throw new BoltFormatException(
                    "key bucket entry at revision " + rev + " is not an mvccpb.KeyValue: " + e.getMessage());
        }
    }

    /**
     * An {@code mvccpb.KeyValue} decoded as protobuf-java decodes it (unknown fields skipped, the
     * last of a repeated field kept), its key and value copied once: the generated message copied
     * each into a {@code ByteString} and then out again, the whole base twice more.
     */
    private static BaseKeyEntry keyValue(long main, int sub, boolean tombstone, byte[] value)
            throws InvalidProtocolBufferException, BoltFormatException {
        CodedInputStream in = CodedInputStream.newInstance(value);
        byte[] key = EMPTY;
        byte[] data = EMPTY;
        long create = 0;
        long mod = 0;
        long version = 0;
        long lease = 0;
        try {
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                switch (tag) {
                    case KEY_TAG -> key = in.readByteArray();
                    case CREATE_TAG -> create = in.readInt64();
                    case MOD_TAG -> mod = in.readInt64();
                    case VERSION_TAG -> version = in.readInt64();
                    case VALUE_TAG -> data = in.readByteArray();
                    case LEASE_TAG -> lease = in.readInt64();
                    default -> {
                        if (!in.skipField(tag)) {
                            throw new InvalidProtocolBufferException("an end-group tag outside a group");
                        }
                    }
                }
            }
        } catch (InvalidProtocolBufferException e) {
            throw e;
        } catch (IOException e) {
            throw new InvalidProtocolBufferException(e);
        }
        if (!tombstone && mod != main) {
            throw new BoltFormatException("key bucket entry at revision " + main + " says mod revision " + mod);
        }
        return new BaseKeyEntry(main, sub, tombstone, key, data, create, version, lease);
    }

    /**
     * Whether {@code file}'s meta records a finished compaction at {@code revision} and none
     * scheduled past it: then etcd kept one entry per live key, the layout the fold would write.
     * Reads the meta bucket only; a file that is not an etcd database is simply not.
     */
    static boolean compactedAt(Path file, long revision) throws IOException {
        try (BoltReader base = BoltReader.open(file)) {
            if (!base.hasBucket(Bucket.META.bytes())) {
                return false;
            }
            Compaction compaction = compaction(base);
            return compaction.finished() == revision && compaction.scheduled() <= revision;
        } catch (BoltFormatException e) {
            return false;
        }
    }

    /**
     * The compaction revisions meta records (their main revisions), 0 where absent.
     *
     * @param finished {@code finishedCompactRev}
     * @param scheduled {@code scheduledCompactRev}
     */
    private record Compaction(long finished, long scheduled) {
        /** A compaction etcd finishes when it opens the database. */
        boolean pending() {
            return scheduled > finished;
        }
    }

    private static Compaction compaction(BoltReader base) throws IOException {
        long[] finished = {0};
        long[] scheduled = {0};
        base.forEach(Bucket.META.bytes(), (k, v, isBucket) -> {
            if (MetaKey.FINISHED_COMPACT_REV.is(k)) {
                finished[0] = Revision.parse(v)
                        .orElseThrow(() -> new BoltFormatException("meta finishedCompactRev is not a revision"))
                        .main();
            } else if (MetaKey.SCHEDULED_COMPACT_REV.is(k)) {
                // a scheduled revision that does not parse counts as pending: the base is then rewritten
                scheduled[0] = Revision.parse(v).map(Revision::main).orElse(Long.MAX_VALUE);
            }
        });
        return new Compaction(finished[0], scheduled[0]);
    }
}
