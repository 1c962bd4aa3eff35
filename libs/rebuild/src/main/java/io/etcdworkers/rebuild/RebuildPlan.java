package io.etcdworkers.rebuild;

import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.BaseSetAside;
import io.etcdworkers.format.Omission;
import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.format.SnapshotSelection;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a rebuild will build, decided before anything is downloaded ({@link Rebuilder#plan()}):
 * the base and the deltas after it, the older chains to go on with when that base turns out to be
 * damaged, and the catalog they were selected from, which answers where to start again when the
 * base's database turns out to be past the revision asked for.
 *
 * @param catalog the store's snapshots under the prefix, as listed once
 * @param selection the base and its deltas, gaps refused (or, {@code --to-last-good}, cut before the first)
 * @param fallbacks the chains from the older full snapshots to the same point, newest first, each
 *     usable as {@code selection} is (a chain with a gap is one only with {@code --to-last-good})
 */
public record RebuildPlan(SnapshotCatalog catalog, SnapshotSelection selection, List<SnapshotSelection> fallbacks) {
    public RebuildPlan {
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(selection, "selection");
        fallbacks = List.copyOf(fallbacks);
    }

    /**
     * The last revision the selected chain reaches, by its objects' names: what a rebuild of this
     * plan ends at when nothing is damaged (the verified end is the outcome's final revision).
     */
    public long chainLastRevision() {
        return selection.lastRevision();
    }

    /**
     * The revision the newest chain the point allows reaches, by its objects' names: {@link
     * #chainLastRevision()} unless a damaged base was set aside for an older chain.
     */
    public long newestChainRevision() {
        return selection.setAside().isEmpty()
                ? selection.targetRevision()
                : selection.setAside().get(0).reach();
    }

    /** The same point, selected from the full snapshot before {@code base}; empty when there is none. */
    Optional<SnapshotSelection> before(SnapshotObject base) {
        return catalog.selectBefore(selection.point(), base);
    }

    /** The plan with another selection from the same catalog. */
    RebuildPlan with(SnapshotSelection other) {
        return new RebuildPlan(catalog, other, fallbacks);
    }

    /**
     * The plan that goes on from the next older chain after this base was found damaged ({@code
     * damage}, naming it): taken when it reaches the revision the newest chain reaches, or with
     * {@code --to-last-good} as far as it can (what it cannot reach listed as left out). Never a
     * chain that reaches less without that flag.
     *
     * @throws WorkerException {@code damage}, with what the older chains would reach, when none may be taken
     */
    RebuildPlan afterDamagedBase(WorkerException damage) {
        long reach = newestChainRevision();
        BaseSetAside aside = new BaseSetAside(
                selection.base().key(), selection.targetRevision(), damage.code(), damage.getMessage());
        if (fallbacks.isEmpty()) {
            throw damage;
        }
        SnapshotSelection next = fallbacks.get(0);
        List<SnapshotSelection> rest = fallbacks.subList(1, fallbacks.size());
        List<BaseSetAside> newer =
                selection.setAside().isEmpty() ? List.of(aside) : concat(selection.setAside(), aside);
        if (next.targetRevision() >= reach) {
            return new RebuildPlan(catalog, next.replacing(newer, List.of()), rest);
        }
        if (selection.point().lastGood()) {
            Omission shortfall = new Omission(
                    Optional.of(newer.get(0).object()),
                    next.targetRevision() + 1,
                    reach,
                    Optional.of(damage.code()),
                    "the full snapshot is damaged and the older chain from "
                            + next.base().key() + " ends at revision " + next.targetRevision() + ": "
                            + damage.getMessage());
            return new RebuildPlan(catalog, next.replacing(newer, List.of(shortfall)), rest);
        }
        throw new WorkerException(
                damage.code(),
                damage.getMessage() + "; the older chain from " + next.base().key() + " reaches only revision "
                        + next.targetRevision() + " of " + reach + " (restore --to-last-good restores up to it)",
                damage);
    }

    private static List<BaseSetAside> concat(List<BaseSetAside> list, BaseSetAside last) {
        List<BaseSetAside> all = new ArrayList<>(list);
        all.add(last);
        return all;
    }
}
