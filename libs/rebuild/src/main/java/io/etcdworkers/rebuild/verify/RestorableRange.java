package io.etcdworkers.rebuild.verify;

import io.etcdworkers.format.ChainProblem;
import io.etcdworkers.format.SnapshotObject;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/**
 * The revisions a restore from the checked base can reach: from the base's revision to the end
 * of the last delta before the first bad object or break in the chain (what {@code restore
 * --to-last-good} restores; any revision in between is a valid {@code --to-revision}).
 *
 * @param fromRevision the base's revision, as its name says
 * @param fromTime when the base was made
 * @param toRevision the last restorable revision
 * @param toTime when the backup sidecar received it; empty when it is the base's
 * @param stopsBefore the object or break that ends the range early; empty when it is the chain's end
 */
public record RestorableRange(
        long fromRevision,
        Instant fromTime,
        long toRevision,
        Optional<OffsetDateTime> toTime,
        Optional<String> stopsBefore) {

    /** Empty when the base itself is bad: nothing can be restored from it. */
    static Optional<RestorableRange> of(List<ObjectCheck> checks, List<ChainProblem> problems) {
        ObjectCheck base = checks.get(0);
        if (!base.passed()) {
            return Optional.empty();
        }
        SnapshotObject full = base.object();
        long revision = full.name().lastRevision();
        Optional<OffsetDateTime> time = Optional.empty();
        for (ObjectCheck check : checks.subList(1, checks.size())) {
            Optional<ChainProblem> breaks = problems.stream()
                    .filter(p -> p.next().equals(check.object()))
                    .findFirst();
            if (breaks.isPresent()) {
                return Optional.of(new RestorableRange(
                        full.name().lastRevision(),
                        full.name().createdAt(),
                        revision,
                        time,
                        Optional.of(breaks.get().describe())));
            }
            if (!check.passed()) {
                return Optional.of(new RestorableRange(
                        full.name().lastRevision(),
                        full.name().createdAt(),
                        revision,
                        time,
                        Optional.of(
                                check.object().key() + " (" + check.failure().orElseThrow() + ")")));
            }
            revision = Math.max(revision, check.object().name().lastRevision());
            time = check.lastTime();
        }
        return Optional.of(new RestorableRange(
                full.name().lastRevision(), full.name().createdAt(), revision, time, Optional.empty()));
    }
}
