package io.etcdworkers.restore;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.DataDirCopy;
import io.etcdworkers.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.etcd.EtcdDataDir;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.etcd.ScratchEtcd;
import io.etcdworkers.files.DiskFull;
import io.etcdworkers.files.FileTree;
import io.etcdworkers.rebuild.bump.BumpWriter;
import io.etcdworkers.rebuild.bump.RevisionBump;
import io.etcdworkers.rebuild.engine.Phases;
import io.etcdworkers.rebuild.verify.KeyBounds;
import io.etcdworkers.rebuild.verify.KeyspaceDigest;
import io.etcdworkers.rebuild.verify.KeyspaceRead;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The revision bump of a placed data dir ({@code <data-dir>.part}, not yet renamed): {@link
 * BumpWriter} writes it into the dir's {@code member/snap/db}, then an etcd started on a copy of
 * the bumped dir must open it at the bumped revision and serve exactly the keyspace the rebuild
 * verified (keys, values, create and mod revisions, versions, leases). The bytes placed are the
 * bytes this etcd verified; the placed dir itself is still never one an etcd ran on.
 */
final class BumpedPlacement {
    private static final Logger LOG = LoggerFactory.getLogger(BumpedPlacement.class);

    private BumpedPlacement() {}

    /** The highest revision in the placed dir's {@code key} bucket: what a bump raises. */
    static long latestRevision(Path part) {
        try {
            return BumpWriter.latestRevision(EtcdDataDir.databaseFile(part));
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot read the placed database " + EtcdDataDir.databaseFile(part) + ": " + e.getMessage(),
                    e);
        }
    }

    /** Bumps the placed dir by {@code amount} and verifies it against {@code verified}. */
    static RevisionBump apply(
            EtcdBinaries binaries,
            EtcdMember member,
            Path part,
            long amount,
            KeyspaceDigest verified,
            Path scratch,
            Duration callTimeout,
            Phases phases) {
        Instant t = phases.start();
        RevisionBump bump;
        try {
            bump = BumpWriter.bumpInPlace(EtcdDataDir.databaseFile(part), amount);
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot bump the revision of " + EtcdDataDir.databaseFile(part) + ": " + DiskFull.explain(e, part),
                    e);
        }
        LOG.info(
                "revision bumped latestRevision={} bumpAmount={} newLatestRevision={} (marked compacted)",
                bump.latest(),
                bump.amount(),
                bump.revision());
        phases.done("bumpRevision", t);
        t = phases.start();
        Path copy = scratch.resolve("bumped.etcd");
        try {
            DataDirCopy.copy(part, Optional.empty(), copy);
            EmbeddedEtcdConfig config =
                    EmbeddedEtcdConfig.defaults(binaries, member.alone(), copy, scratch.resolve("bumped-etcd"));
            if (member.cluster().size() > 1) {
                config = config.withForceNewCluster();
            }
            try (ScratchEtcd etcd = ScratchEtcd.start(config, callTimeout)) {
                check(etcd, bump, verified);
            }
            FileTree.delete(copy);
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot verify the bumped data dir in " + copy + ": " + DiskFull.explain(e, copy),
                    e);
        }
        phases.done("verifyBump", t);
        return bump;
    }

    private static void check(ScratchEtcd etcd, RevisionBump bump, KeyspaceDigest verified) {
        long revision = etcd.client().status().getHeader().getRevision();
        if (revision != bump.revision()) {
            throw new WorkerException(
                    ErrorCode.ETCD_FAILURE,
                    "etcd opened the bumped database at revision " + revision + ", not at " + bump.revision());
        }
        KeyspaceDigest served =
                KeyspaceRead.of(etcd.client(), revision, KeyBounds.none()).digest();
        if (served.keys() != verified.keys()
                || served.leasedKeys() != verified.leasedKeys()
                || !served.kvSha256().equals(verified.kvSha256())
                || !served.metaSha256().equals(verified.metaSha256())) {
            throw new WorkerException(
                    ErrorCode.ETCD_FAILURE,
                    "etcd serves another keyspace after the bump: " + served + ", verified before it: " + verified);
        }
        LOG.info("bumped database verified revision={} keys={}", revision, served.keys());
    }
}
