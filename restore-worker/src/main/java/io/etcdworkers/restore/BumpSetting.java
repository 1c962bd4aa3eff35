package io.etcdworkers.restore;

import io.etcdworkers.format.RestorePoint;
import java.util.OptionalLong;

/**
 * How much a restore raises the restored database's revision ({@code --bump-revision N
 * --mark-compacted}, as etcdutl 3.5 does it).
 *
 * <p>By default a point-in-time restore is bumped past the bucket's latest revision plus {@link
 * #MARGIN}: the backup sidecar keeps a data dir only when its revision is at least the bucket's
 * latest snapshot revision (else it logs "current etcd revision (X) is less than latest snapshot
 * revision (Y)" and restores the latest state over it), and the deltas it writes after the
 * restore must land above every revision already in the bucket. The margin also absorbs
 * revisions the old cluster wrote after the bucket was listed. A latest-state restore is not
 * bumped: its revision already is the bucket's latest, the sidecar keeps it and continues the
 * chain, and clients see no revision go back.
 *
 * @param amount the bump asked for ({@code 0}: none); empty: the default
 */
public record BumpSetting(OptionalLong amount) {
    /**
     * A million revisions: hours of a busy cluster's writes (a Kubernetes control plane writes
     * tens to hundreds of revisions a second), and nothing against the 2^63 revisions etcd has.
     */
    public static final long MARGIN = 1_000_000;

    public BumpSetting {
        if (amount.isPresent() && amount.getAsLong() < 0) {
            throw new IllegalArgumentException("--bump-revision must not be negative: " + amount.getAsLong());
        }
    }

    public static BumpSetting byDefault() {
        return new BumpSetting(OptionalLong.empty());
    }

    public static BumpSetting of(long amount) {
        return new BumpSetting(OptionalLong.of(amount));
    }

    /**
     * The bump for a database restored at {@code point} whose latest revision is {@code restored},
     * from a bucket whose snapshots reach {@code bucketLatest}; 0 for none.
     */
    public long amountFor(RestorePoint point, long restored, long bucketLatest) {
        if (amount.isPresent()) {
            return amount.getAsLong();
        }
        if (!point.isPointInTime()) {
            return 0;
        }
        return Math.max(bucketLatest - restored, 0) + MARGIN;
    }

    /** Whether the default applies (no {@code --bump-revision} given). */
    public boolean isDefault() {
        return amount.isEmpty();
    }
}
