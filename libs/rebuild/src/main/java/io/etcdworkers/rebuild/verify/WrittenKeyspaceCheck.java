package io.etcdworkers.rebuild.verify;

import io.etcd.jetcd.api.HashKVResponse;
import io.etcd.jetcd.api.RangeRequest;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.EtcdGrpcClient;
import io.etcdworkers.rebuild.verify.KeyBounds.KeyRange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies a database this project wrote, as a running etcd opened it, without asking etcd for
 * every key. Three links, each checked against an independent side:
 *
 * <ol>
 *   <li>the file holds the fold's keyspace: the {@link KeySum} of every entry decoded from the
 *       file ({@link WrittenKeys}) equals the fold's ({@link RangeSums#total()});
 *   <li>etcd opened exactly that file's keys and indexes every one: its {@code HashKV} equals the
 *       CRC-32C of the bucket read from the file, at the expected revision. The database is
 *       compacted at that revision, so etcd hashes only the entries its index keeps as a key's
 *       latest: an entry missing from the index, or two entries of one key, changes the hash
 *       (when etcd reports another compaction revision, it is asked to count its keys too);
 *   <li>etcd serves them: a sample of ranges (the first, the last, and others at random) served
 *       range by range add up to the fold's sums for those ranges.
 * </ol>
 *
 * With {@link VerifyScope#ALL} etcd also serves every key, digested and compared with the fold's
 * digest, as the replay is verified.
 */
public final class WrittenKeyspaceCheck {
    private static final Logger LOG = LoggerFactory.getLogger(WrittenKeyspaceCheck.class);

    /** Ranges read back with {@link VerifyScope#SAMPLE}, the first and the last among them. */
    public static final int SAMPLED_RANGES = 16;

    /** Ranges walked at once. */
    private static final int SAMPLE_THREADS = 4;

    private WrittenKeyspaceCheck() {}

    /** What etcd served differs from what was written; the message says where. */
    public static final class Mismatch extends Exception {
        private static final long serialVersionUID = 1L;

        Mismatch(String message) {
            super(message);
        }
    }

    /**
     * @param expected the fold's digest of its keyspace at {@code revision}
     * @param sums the fold's sums over {@code bounds}' ranges
     * @param written what the file etcd was restored from holds
     * @return what etcd served: the fold's digest when only a sample was read (it was checked
     *     through the sums), else the digest of everything read
     */
    public static KeyspaceRead check(
            EtcdGrpcClient client,
            long revision,
            KeyspaceDigest expected,
            RangeSums sums,
            KeyBounds bounds,
            WrittenKeys written,
            VerifyScope scope,
            Random random)
            throws Mismatch {
        if (sums.size() != bounds.size() + 1) {
            throw new IllegalArgumentException(
                    "sums for " + sums.size() + " ranges, bounds make " + (bounds.size() + 1));
        }
        if (!written.sum().equals(sums.total()) || written.entries() != expected.keys()) {
            throw new Mismatch(String.format(
                    "the database file holds %d entries (sum %s), the fold computed %d keys " + "(sum %s)",
                    written.entries(), written.sum(), expected.keys(), sums.total()));
        }
        long hashStart = System.nanoTime();
        HashKVResponse hash = client.hashKv(0);
        // at millions of keys etcd's HashKV is most of the verification: the log says how much
        LOG.atInfo()
                .setMessage("etcd hashed its keys")
                .addKeyValue("revision", hash.getHeader().getRevision())
                .addKeyValue("compactRevision", hash.getCompactRevision())
                .addKeyValue("ms", (System.nanoTime() - hashStart) / 1_000_000)
                .log();
        if (hash.getHash() != written.hashKv() || hash.getHeader().getRevision() != revision) {
            throw new Mismatch(String.format(
                    "etcd's HashKV is %d at revision %d; the file's key bucket hashes to %d " + "at revision %d",
                    Integer.toUnsignedLong(hash.getHash()),
                    hash.getHeader().getRevision(),
                    written.hashKvUnsigned(),
                    revision));
        }
        long count = 0;
        if (hash.getCompactRevision() != revision) {
            // not compacted at the revision (never so for the fold's database): the hash covered
            // every entry whether etcd's index keeps it or not, so ask etcd to count its keys
            count = client.range(RangeRequest.newBuilder()
                            .setKey(KeyRange.FIRST_KEY)
                            .setRangeEnd(KeyRange.TO_END)
                            .setRevision(revision)
                            .setCountOnly(true)
                            .build())
                    .getCount();
            if (count != expected.keys()) {
                throw new Mismatch(String.format(
                        "etcd counts %d keys at revision %d, the fold %d", count, revision, expected.keys()));
            }
        }
        if (scope == VerifyScope.ALL) {
            KeyspaceRead read = KeyspaceRead.of(client, revision, bounds);
            if (!read.digest().sameKeyspace(expected)) {
                throw new Mismatch(String.format(
                        "etcd serves %d keys kv %s meta %s, the fold computed %d keys kv %s " + "meta %s",
                        read.digest().keys(),
                        read.digest().kvSha256(),
                        read.digest().metaSha256(),
                        expected.keys(),
                        expected.kvSha256(),
                        expected.metaSha256()));
            }
            return read.withHashKv(written.hashKvUnsigned(), count);
        }
        RangeWalk.Cost sampled = sample(client, revision, sums, bounds, random);
        RangeWalk.Cost cost = count == 0
                ? sampled
                : new RangeWalk.Cost(
                        sampled.rangeRequests() + 1,
                        sampled.keysRead(),
                        sampled.keysCounted() + count,
                        sampled.ranges());
        return new KeyspaceRead(expected, cost, bounds, VerifyScope.SAMPLE, OptionalLong.of(written.hashKvUnsigned()));
    }

    /**
     * Walks the picked ranges on a few threads at once (etcd serves them concurrently, and
     * decoding 16 ranges of values is most of the check's time on one thread); compares them in
     * range order, so the mismatch reported is the first one.
     */
    private static RangeWalk.Cost sample(
            EtcdGrpcClient client, long revision, RangeSums sums, KeyBounds bounds, Random random) throws Mismatch {
        List<KeyRange> ranges = bounds.ranges();
        TreeSet<Integer> picked = pick(ranges.size(), random);
        ExecutorService walkers = Executors.newFixedThreadPool(Math.min(picked.size(), SAMPLE_THREADS), r -> {
            Thread t = new Thread(r, "verify-sampled-range");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Served>> walks = new ArrayList<>();
            for (int index : picked) {
                KeyRange range = ranges.get(index);
                walks.add(walkers.submit(() -> walk(client, revision, index, range)));
            }
            long requests = 0;
            long keys = 0;
            long counted = 0;
            for (Future<Served> walk : walks) {
                Served served = result(walk);
                if (!served.sum().equals(sums.range(served.index()))) {
                    throw new Mismatch(String.format(
                            "etcd serves range %d of %d (from %s) as %s, the fold computed %s",
                            served.index() + 1,
                            ranges.size(),
                            ranges.get(served.index()).from().toStringUtf8(),
                            served.sum(),
                            sums.range(served.index())));
                }
                requests += served.cost().rangeRequests();
                keys += served.cost().keysRead();
                counted += served.cost().keysCounted();
            }
            return new RangeWalk.Cost(requests, keys, counted, picked.size());
        } finally {
            walkers.shutdownNow();
        }
    }

    private record Served(int index, KeySum sum, RangeWalk.Cost cost) {}

    private static Served walk(EtcdGrpcClient client, long revision, int index, KeyRange range) {
        KeyHasher hasher = new KeyHasher();
        KeySum served = new KeySum();
        try {
            RangeWalk.Cost cost = RangeWalk.walk(
                    client,
                    revision,
                    KeyBounds.none(),
                    range.from(),
                    range.end(),
                    kv -> hasher.addTo(
                            served,
                            kv.getKey(),
                            kv.getValue(),
                            kv.getCreateRevision(),
                            kv.getModRevision(),
                            kv.getVersion(),
                            kv.getLease()));
            return new Served(index, served, cost);
        } catch (IOException e) {
            throw new UncheckedIOException("hashing does no I/O", e);
        }
    }

    /** The walk's result; its failure (etcd's, as a {@code WorkerException}) is rethrown as it was. */
    private static Served result(Future<Served> walk) {
        try {
            return walk.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorkerException(ErrorCode.INTERRUPTED, "interrupted while etcd served the sampled ranges", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** The first and last range, and others at random: {@link #SAMPLED_RANGES} in all, or every one. */
    static TreeSet<Integer> pick(int ranges, Random random) {
        TreeSet<Integer> picked = new TreeSet<>();
        picked.add(0);
        picked.add(ranges - 1);
        int want = Math.min(ranges, SAMPLED_RANGES);
        while (picked.size() < want) {
            picked.add(random.nextInt(ranges));
        }
        return picked;
    }
}
