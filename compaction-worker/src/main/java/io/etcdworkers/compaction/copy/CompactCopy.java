package io.etcdworkers.compaction.copy;

import io.etcdworkers.compaction.compact.CompactionConfig;
import io.etcdworkers.compaction.compact.CompactionOutcome;
import io.etcdworkers.compaction.compact.CompactionService;
import io.etcdworkers.compaction.compact.UploadedSnapshot;
import io.etcdworkers.compaction.lease.KubernetesClients;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.files.FileTree;
import io.etcdworkers.files.OwnerOnly;
import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.format.SnapshotName;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code copy --compact}: instead of every object, one full snapshot of the source's latest state
 * in the target, the cheap way to move a cluster. The compaction's rebuild (verified by a real etcd)
 * and upload write it, into the target and without {@code .final}; it is then read back and checked
 * like a copied object. With no delta after the latest full snapshot, that snapshot itself is copied.
 * A full snapshot already in the target at the source's last revision that passes its check is kept,
 * so a rerun writes nothing.
 */
public final class CompactCopy {
    private static final Logger LOG = LoggerFactory.getLogger(CompactCopy.class);

    /** What it did: the copy's counts and names, and the new full snapshot when one was compacted. */
    public record Outcome(CopyOutcome copy, Optional<UploadedSnapshot> uploaded) {}

    private final ObjectStore source;
    private final ObjectStore target;
    private final CopyConfig copy;
    private final CompactionConfig compaction;
    private final Clock clock;

    public CompactCopy(
            ObjectStore source, ObjectStore target, CopyConfig copy, CompactionConfig compaction, Clock clock) {
        this.source = source;
        this.target = target;
        this.copy = copy;
        this.compaction = compaction;
        this.clock = clock;
    }

    public Outcome run() throws InterruptedException {
        SnapshotCatalog catalog = SnapshotCatalog.load(source, copy.sourcePrefix());
        SnapshotSelection selection = catalog.select();
        long revision = selection.lastRevision();
        String targetBase = SnapshotCatalog.normalizePrefix(copy.targetPrefix());
        int listed = catalog.snapshots().size();
        Path tempDir = copy.dryRun() ? null : tempDir();
        try (CopyProgress progress = new CopyProgress(1, 0, clock)) {
            ObjectCopy objects = new ObjectCopy(source, target, tempDir, progress);
            Optional<SnapshotObject> there = SnapshotCatalog.load(target, copy.targetPrefix()).snapshots().stream()
                    .filter(s -> s.isFull() && s.name().lastRevision() == revision)
                    .reduce((a, b) -> b);
            if (there.isPresent() && (copy.dryRun() || whole(objects, there.get()))) {
                String relative = there.get().key().substring(targetBase.length());
                LOG.info("copy: the target has a full snapshot at revision {} already: {}", revision, relative);
                return new Outcome(
                        new CopyOutcome(
                                listed,
                                1,
                                List.of(),
                                List.of(),
                                List.of(relative),
                                copy.dryRun() ? List.of() : List.of(relative),
                                0,
                                null,
                                copy.dryRun()),
                        Optional.empty());
            }
            if (copy.dryRun()) {
                String would = "v2/Full-00000000-" + String.format("%08d", revision) + "-<now>";
                LOG.info("copy: would write one full snapshot at revision {} as {}{}", revision, targetBase, would);
                return new Outcome(
                        new CopyOutcome(listed, 1, List.of(would), List.of(), List.of(), List.of(), 0, null, true),
                        Optional.empty());
            }
            if (selection.deltas().isEmpty()) {
                SnapshotObject base = selection.base();
                String relative = CopyService.targetRelative(base.key()
                        .substring(SnapshotCatalog.normalizePrefix(copy.sourcePrefix())
                                .length()));
                ObjectCopy.Copied done = objects.copy(base, targetBase + relative);
                return new Outcome(
                        new CopyOutcome(
                                listed,
                                1,
                                List.of(relative),
                                List.of(),
                                List.of(),
                                List.of(relative),
                                done.size(),
                                null,
                                false),
                        Optional.empty());
            }
            CompactionOutcome outcome = new CompactionService(
                            source, target, copy.targetPrefix(), false, compaction, clock, new KubernetesClients())
                    .compact();
            if (!(outcome instanceof CompactionOutcome.Compacted compacted)) {
                throw new IllegalStateException("a compaction without thresholds was skipped: " + outcome);
            }
            UploadedSnapshot uploaded = compacted.uploaded();
            String relative = uploaded.key().substring(targetBase.length());
            SnapshotName name = SnapshotName.parse(relative.substring(relative.lastIndexOf('/') + 1))
                    .orElseThrow();
            objects.readBack(
                    new SnapshotObject(new ObjectInfo(uploaded.key(), uploaded.size(), clock.instant()), name),
                    uploaded.key());
            return new Outcome(
                    new CopyOutcome(
                            listed,
                            1 + selection.deltas().size(),
                            List.of(relative),
                            List.of(),
                            List.of(),
                            List.of(relative),
                            uploaded.size(),
                            null,
                            false),
                    Optional.of(uploaded));
        } finally {
            if (tempDir != null) {
                try {
                    FileTree.delete(tempDir);
                } catch (IOException e) {
                    LOG.warn("copy: could not remove the temp dir {}: {}", tempDir, e.getMessage());
                }
            }
        }
    }

    private static boolean whole(ObjectCopy objects, SnapshotObject snapshot) throws InterruptedException {
        try {
            objects.readBack(snapshot, snapshot.key());
            return true;
        } catch (WorkerException e) {
            if (e.code() == ErrorCode.INTERRUPTED || e.code() == ErrorCode.STORE_UNAVAILABLE) {
                throw e;
            }
            LOG.warn("copy: {} in the target fails its check, writing a new one: {}", snapshot.key(), e.getMessage());
            return false;
        }
    }

    private Path tempDir() {
        try {
            OwnerOnly.createDirectories(copy.tempDir());
            return OwnerOnly.createDirectory(copy.tempDir().resolve("etcd-worker-copy-" + UUID.randomUUID()));
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO, "cannot create a temp dir under " + copy.tempDir() + ": " + e.getMessage(), e);
        }
    }
}
