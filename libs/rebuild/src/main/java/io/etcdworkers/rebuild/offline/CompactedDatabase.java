package io.etcdworkers.rebuild.offline;

import com.google.protobuf.CodedOutputStream;
import io.etcdworkers.bolt.BoltFormatException;
import io.etcdworkers.bolt.BoltReader;
import io.etcdworkers.bolt.BoltWriter;
import io.etcdworkers.bolt.BucketWriter;
import io.etcdworkers.etcd.schema.Bucket;
import io.etcdworkers.etcd.schema.MetaKey;
import io.etcdworkers.etcd.schema.Revision;
import io.etcdworkers.rebuild.verify.KeyBounds;
import io.etcdworkers.rebuild.verify.KeyspaceDigest;
import io.etcdworkers.rebuild.verify.KeyspaceDigestBuilder;
import io.etcdworkers.rebuild.verify.KeyspaceRead;
import io.etcdworkers.rebuild.verify.RangeSums;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/**
 * Writes the folded state as a fresh, compacted etcd database: the {@code key} bucket with one
 * entry per live key at its mod revision (what etcd's own compaction at the last revision plus a
 * defragmentation leaves), {@code meta} with both compaction revisions at the last revision (so
 * etcd opens it at that revision), {@code lease} with the base's leases plus those live keys
 * name that the base lacked, and every other bucket copied from the base.
 */
final class CompactedDatabase {
    static final int PAGE_SIZE = 4096;

    private CompactedDatabase() {}

    /** Values per range of the verification's read at most (a page of keys is {@link KeyspaceRead#PAGE}). */
    static final long VERIFY_PAGE_BYTES = 4L * 1024 * 1024;

    /** What was written, the bounds that read it back from etcd a page per range, and each range's sum. */
    record Written(long bytes, long keys, int leasesGranted, KeyspaceDigest digest, KeyBounds bounds, RangeSums sums) {}

    /** What etcd must serve of a database holding {@code live}: its digest, and sums over ranges a page apart. */
    record Expected(KeyspaceDigest digest, KeyBounds bounds, RangeSums sums) {}

    static Written write(
            BoltReader base, FoldedKeys live, Set<Long> baseLeases, long revision, long grantTtlSeconds, Path file)
            throws IOException {
        TreeSet<byte[]> buckets = new TreeSet<>(Arrays::compareUnsigned);
        buckets.addAll(base.bucketNames());
        for (Bucket b : Bucket.values()) {
            buckets.add(b.bytes());
        }
        int granted = 0;
        ExpectedOnTheSide expected = ExpectedOnTheSide.start(live, revision);
        try (BoltWriter out = BoltWriter.create(file, PAGE_SIZE)) {
            for (byte[] name : buckets) {
                try (BucketWriter bucket = out.bucket(name)) {
                    if (Bucket.KEY.is(name)) {
                        writeKeys(live, bucket);
                    } else if (Bucket.META.is(name)) {
                        writeMeta(base, revision, bucket);
                    } else if (Bucket.LEASE.is(name)) {
                        granted = writeLeases(base, live, baseLeases, grantTtlSeconds, bucket);
                    } else {
                        copy(base, name, bucket);
                    }
                }
            }
            long bytes = out.finish();
            Expected served = expected.get();
            return new Written(bytes, live.size(), granted, served.digest(), served.bounds(), served.sums());
        } catch (IOException | RuntimeException | Error e) {
            expected.abandon();
            throw e;
        }
    }

    /** The digest and range sums of {@code live} at {@code revision}, read in key order once. */
    static Expected expected(FoldedKeys live, long revision) throws IOException {
        return expected(live, revision, () -> false);
    }

    /** {@link #expected(FoldedKeys, long)}, ending early (an exception) once {@code stop} says so. */
    static Expected expected(FoldedKeys live, long revision, BooleanSupplier stop) throws IOException {
        KeyBounds.EveryPage bounds = new KeyBounds.EveryPage(KeyspaceRead.PAGE, VERIFY_PAGE_BYTES);
        RangeSums.Builder sums = new RangeSums.Builder();
        KeyspaceDigest digest = digest(live, revision, bounds, sums, stop);
        KeyBounds built = bounds.build();
        return new Expected(digest, built, sums.build(built));
    }

    private static void writeKeys(FoldedKeys live, BucketWriter bucket) throws IOException {
        live.byRevision(k -> bucket.putOwned(
                new Revision(k.mod(), k.sub()).bytes(),
                EtcdValues.keyValue(k.key(), k.create(), k.mod(), k.version(), k.value(), k.lease())));
    }

    private static void writeMeta(BoltReader base, long revision, BucketWriter bucket) throws IOException {
        TreeMap<byte[], byte[]> meta = new TreeMap<>(Arrays::compareUnsigned);
        base.forEach(Bucket.META.bytes(), (k, v, isBucket) -> {
            if (isBucket) {
                throw new BoltFormatException("unexpected nested bucket in meta");
            }
            meta.put(k, v);
        });
        meta.put(MetaKey.FINISHED_COMPACT_REV.bytes(), new Revision(revision, 0).bytes());
        meta.put(MetaKey.SCHEDULED_COMPACT_REV.bytes(), new Revision(revision, 0).bytes());
        for (var e : meta.entrySet()) {
            bucket.put(e.getKey(), e.getValue());
        }
    }

    private static int writeLeases(
            BoltReader base, FoldedKeys live, Set<Long> baseLeases, long ttlSeconds, BucketWriter bucket)
            throws IOException {
        TreeMap<byte[], byte[]> leases = new TreeMap<>(Arrays::compareUnsigned);
        if (base.hasBucket(Bucket.LEASE.bytes())) {
            base.forEach(Bucket.LEASE.bytes(), (k, v, isBucket) -> leases.put(k, v));
        }
        int granted = 0;
        for (long id : live.leaseIds()) {
            if (!baseLeases.contains(id)
                    && leases.putIfAbsent(EtcdValues.leaseKey(id), lease(id, ttlSeconds)) == null) {
                granted++;
            }
        }
        for (var e : leases.entrySet()) {
            bucket.put(e.getKey(), e.getValue());
        }
        return granted;
    }

    /** {@code leasepb.Lease{ID, TTL}} as etcd stores a freshly granted lease. */
    static byte[] lease(long id, long ttlSeconds) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(24);
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        out.writeInt64(1, id);
        out.writeInt64(2, ttlSeconds);
        out.flush();
        return bytes.toByteArray();
    }

    private static void copy(BoltReader base, byte[] name, BucketWriter bucket) throws IOException {
        bucket.setSequence(base.sequence(List.of(name)));
        base.forEach(name, (k, v, isBucket) -> {
            if (isBucket) {
                throw new BoltFormatException(
                        "nested bucket in '" + KeyspaceFold.printable(name) + "': not part of etcd's layout");
            }
            bucket.put(k, v);
        });
    }

    private static KeyspaceDigest digest(
            FoldedKeys live, long revision, KeyBounds.EveryPage bounds, RangeSums.Builder sums, BooleanSupplier stop)
            throws IOException {
        KeyspaceDigestBuilder digest = new KeyspaceDigestBuilder();
        live.byKey(k -> {
            if (stop.getAsBoolean()) {
                throw new IOException("the digest of the folded keys was abandoned (the write failed)");
            }
            digest.add(k.key(), k.value(), k.create(), k.mod(), k.version(), k.lease());
            bounds.offer(k.key(), k.value().length);
            sums.add(bounds.taken(), k.key(), k.value(), k.create(), k.mod(), k.version(), k.lease());
        });
        return digest.build(revision);
    }
}
