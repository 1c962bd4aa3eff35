package io.etcdworkers.rebuild.sequence;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.GroupDigest;
import io.etcdworkers.format.RevisionGroup;
import java.util.HashMap;
import java.util.Map;

/**
 * Two deltas that overlap (written around a leader change): the earlier one's revisions in the
 * overlap are remembered by their {@link GroupDigest} as they are applied, and the later one's
 * must hold the same events, one revision after the other; they are then taken once.
 */
final class DeltaOverlap {
    private final String earlier;
    private final String later;
    private final long first;
    private final long last;
    private final Map<Long, byte[]> digests = new HashMap<>();
    private long nextCompared;

    DeltaOverlap(String earlier, String later, long first, long last) {
        this.earlier = earlier;
        this.later = later;
        this.first = first;
        this.last = last;
        this.nextCompared = first;
    }

    /** The revisions both deltas hold, taken once. */
    OverlapTaken taken() {
        return new OverlapTaken(earlier, later, first, last);
    }

    boolean records(String objectName, long revision) {
        return objectName.equals(earlier) && revision >= first && revision <= last;
    }

    void record(RevisionGroup group) {
        digests.put(group.revision(), GroupDigest.of(group));
    }

    boolean compares(String objectName, long revision) {
        return objectName.equals(later) && revision <= last;
    }

    /** True when the later delta has passed the whole overlap. */
    boolean complete() {
        return nextCompared > last;
    }

    /**
     * @throws WorkerException {@link ErrorCode#BACKUP_INCONSISTENT} naming both objects and the first
     *     revision that differs (or is missing)
     */
    void compare(RevisionGroup group) {
        long rev = group.revision();
        byte[] expected = digests.get(rev);
        if (rev != nextCompared || expected == null || !GroupDigest.same(expected, GroupDigest.of(group))) {
            long differs = Math.min(rev, nextCompared);
            throw new WorkerException(
                    ErrorCode.BACKUP_INCONSISTENT,
                    String.format(
                            "%s and %s overlap at revisions %d..%d but differ there, first at revision %d: "
                                    + "neither can be trusted over the other",
                            earlier, later, first, last, differs));
        }
        digests.remove(rev);
        nextCompared++;
    }
}
