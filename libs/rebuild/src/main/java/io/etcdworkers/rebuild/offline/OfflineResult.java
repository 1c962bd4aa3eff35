package io.etcdworkers.rebuild.offline;

import io.etcdworkers.rebuild.engine.FoldWork;
import io.etcdworkers.rebuild.sequence.SequenceStats;
import io.etcdworkers.rebuild.verify.KeyBounds;
import io.etcdworkers.rebuild.verify.KeyspaceDigest;
import io.etcdworkers.rebuild.verify.RangeSums;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What the fold produced: a compacted database file (with its SHA-256 trailer, or without when it
 * is only restored here) and what it must hold once a real etcd opens it.
 *
 * @param database the written database, trailer included
 * @param databaseBytes its size without the trailer
 * @param hashTrailer whether {@code database} ends in its SHA-256 (else its restore skips the check)
 * @param baseRevision the base database's revision
 * @param sequence the revisions folded (its final revision is the one the database opens at)
 * @param leasesGranted leases written because live keys name them and the base lacked them
 * @param fold the fold's memory budget and whether it went to disk partitions
 * @param expected the digest of the folded keyspace, to compare with what etcd serves
 * @param bounds keys a page apart in the folded keyspace, so reading it back costs each key once
 * @param sums the folded keyspace's sum over each of {@code bounds}' ranges
 * @param duration wall time of the fold and the write
 */
public record OfflineResult(
        Path database,
        long databaseBytes,
        boolean hashTrailer,
        long baseRevision,
        SequenceStats sequence,
        int leasesGranted,
        FoldWork fold,
        KeyspaceDigest expected,
        KeyBounds bounds,
        RangeSums sums,
        Duration duration) {

    public long finalRevision() {
        return sequence.finalRevision();
    }
}
