package io.etcdworkers.rebuild.verify;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.ChainProblem;
import io.etcdworkers.format.DeltaDecoder;
import io.etcdworkers.format.GroupDigest;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.format.SnapshotStreams;
import io.etcdworkers.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two deltas that overlap (the later starting inside the earlier, as deltas written around a
 * leader change do), read again and compared revision by revision where they overlap: the chain
 * is sound when both hold the same events there.
 *
 * @param earlier the earlier delta's key
 * @param later the later delta's key
 * @param firstRevision the first revision both hold
 * @param lastRevision the last one
 * @param differsAt the first revision whose events differ (or that one of them lacks); empty when
 *     they hold the same events
 */
public record OverlapComparison(
        String earlier, String later, long firstRevision, long lastRevision, Optional<Long> differsAt) {
    private static final Logger LOG = LoggerFactory.getLogger(OverlapComparison.class);

    /** Reads both deltas (already checked whole) and compares their revisions {@code later.start..earlier.last}. */
    static OverlapComparison of(ObjectStore store, ChainProblem overlap) throws IOException, InterruptedException {
        SnapshotObject earlier = overlap.previous();
        SnapshotObject later = overlap.next();
        long first = later.name().startRevision();
        long last = earlier.name().lastRevision();
        Map<Long, byte[]> a = digests(store, earlier, first, last);
        Map<Long, byte[]> b = digests(store, later, first, last);
        Optional<Long> differs = Optional.empty();
        for (long rev = first; rev <= last; rev++) {
            byte[] x = a.get(rev);
            byte[] y = b.get(rev);
            if (x == null || y == null || !GroupDigest.same(x, y)) {
                differs = Optional.of(rev);
                break;
            }
        }
        return new OverlapComparison(earlier.key(), later.key(), first, last, differs);
    }

    /** One line for a person, naming both objects and, when they differ, the first revision that does. */
    public String describe() {
        return differsAt
                .map(r -> String.format(
                        "%s and %s overlap at revisions %d..%d but differ there, first at revision %d: "
                                + "neither can be trusted over the other",
                        earlier, later, firstRevision, lastRevision, r))
                .orElseGet(() -> String.format(
                        "%s and %s overlap at revisions %d..%d with the same events: a restore takes them once",
                        earlier, later, firstRevision, lastRevision));
    }

    private static Map<Long, byte[]> digests(ObjectStore store, SnapshotObject delta, long first, long last)
            throws IOException, InterruptedException {
        Map<Long, byte[]> digests = new TreeMap<>();
        try (InputStream in = SnapshotStreams.openDecompressed(store, delta)) {
            DeltaDecoder.decode(delta.key(), in, group -> {
                if (group.revision() >= first && group.revision() <= last) {
                    digests.put(group.revision(), GroupDigest.of(group));
                }
            });
        }
        return digests;
    }

    /**
     * Compares every pair of overlapping deltas that both read whole; a pair that differs turns
     * the later one's check into {@link ErrorCode#BACKUP_INCONSISTENT} naming both and the revision.
     */
    static List<OverlapComparison> compareAll(ObjectStore store, SnapshotSelection selection, List<ObjectCheck> checks)
            throws InterruptedException {
        List<OverlapComparison> compared = new ArrayList<>();
        for (ChainProblem overlap : selection.overlaps()) {
            int later = 1 + selection.deltas().indexOf(overlap.next());
            int earlier = 1 + selection.deltas().indexOf(overlap.previous());
            if (!checks.get(later).passed() || !checks.get(earlier).passed()) {
                continue;
            }
            try {
                OverlapComparison comparison = of(store, overlap);
                compared.add(comparison);
                if (comparison.differsAt().isPresent()) {
                    checks.set(
                            later,
                            ObjectCheck.failed(overlap.next(), ErrorCode.BACKUP_INCONSISTENT, comparison.describe()));
                } else {
                    LOG.info(comparison.describe());
                }
            } catch (WorkerException e) {
                checks.set(later, ObjectCheck.failedOrRethrow(overlap.next(), e));
            } catch (IOException e) {
                throw new WorkerException(
                        ErrorCode.STORE_UNAVAILABLE, overlap.next().key() + ": " + e.getMessage(), e);
            }
        }
        return compared;
    }
}
