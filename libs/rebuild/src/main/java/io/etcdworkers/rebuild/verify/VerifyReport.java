package io.etcdworkers.rebuild.verify;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.format.ChainProblem;
import io.etcdworkers.format.SnapshotKey;
import io.etcdworkers.format.SnapshotSelection;
import java.util.List;
import java.util.Optional;

/**
 * Everything {@code verify-backup} found: the selection a restore would use, the check of
 * every object in it, every break in the chain, the keys that were skipped, and (when asked)
 * what a rebuild of it needs in memory. When the selection's full snapshot is bad, {@code
 * olderChain} is the report of the chain a restore goes on with instead: the newest older full
 * snapshot that is sound and the deltas after it. {@code overlaps} are the pairs of overlapping
 * deltas compared where they overlap (a pair that differs is also a failed check of the later one).
 */
public record VerifyReport(
        SnapshotSelection selection,
        List<ObjectCheck> checks,
        List<ChainProblem> chainProblems,
        List<SnapshotKey.Invalid> skipped,
        Optional<SizeEstimate> sizeEstimate,
        Optional<VerifyReport> olderChain,
        List<OverlapComparison> overlaps) {

    public VerifyReport {
        checks = List.copyOf(checks);
        chainProblems = List.copyOf(chainProblems);
        skipped = List.copyOf(skipped);
        overlaps = List.copyOf(overlaps);
    }

    /**
     * The code the command exits with: the first failed object in restore order (the most
     * specific finding), else a chain break, else none.
     */
    public Optional<ErrorCode> failure() {
        for (ObjectCheck check : checks) {
            if (check.failure().isPresent()) {
                return check.failure();
            }
        }
        return chainProblems.isEmpty() ? Optional.empty() : Optional.of(ErrorCode.BACKUP_INCONSISTENT);
    }

    /**
     * What a restore can reach: from this base, or when it is bad from the older chain's; empty
     * when no sound full snapshot starts a chain.
     */
    public Optional<RestorableRange> restorable() {
        Optional<RestorableRange> own = RestorableRange.of(checks, chainProblems);
        return own.isPresent() ? own : olderChain.flatMap(VerifyReport::restorable);
    }

    public long events() {
        return checks.stream().mapToLong(ObjectCheck::events).sum();
    }

    public long failedObjects() {
        return checks.stream().filter(c -> !c.passed()).count();
    }
}
