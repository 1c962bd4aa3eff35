package io.etcdworkers.rebuild;

import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.format.SnapshotSelection;
import java.util.Objects;
import java.util.Optional;

/**
 * What a rebuild will build, decided before anything is downloaded ({@link Rebuilder#plan()}):
 * the base and the deltas after it, and the catalog they were selected from, which answers where
 * to start again when the base's database turns out to be past the revision asked for.
 *
 * @param catalog the store's snapshots under the prefix, as listed once
 * @param selection the base and its deltas, gaps refused (or, {@code --to-last-good}, cut before the first)
 */
public record RebuildPlan(SnapshotCatalog catalog, SnapshotSelection selection) {
    public RebuildPlan {
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(selection, "selection");
    }

    /** The same point, selected from the full snapshot before {@code base}; empty when there is none. */
    Optional<SnapshotSelection> before(SnapshotObject base) {
        return catalog.selectBefore(selection.point(), base);
    }

    /** The plan with another selection from the same catalog. */
    RebuildPlan with(SnapshotSelection other) {
        return new RebuildPlan(catalog, other);
    }
}
