package io.etcdworkers.rebuild;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.util.Set;

/**
 * The base of a rebuild was found damaged when it was read: its hash does not match, it is cut
 * short, or it cannot be decoded (its compression, or its bbolt structure). Caught by {@link
 * Rebuilder}, which goes on from the plan's next older chain or reports {@link #damage()}.
 */
final class DamagedBase extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private static final Set<ErrorCode> DAMAGE =
            Set.of(ErrorCode.HASH_MISMATCH, ErrorCode.TRUNCATED_OBJECT, ErrorCode.CORRUPT_OBJECT);

    private final transient WorkerException damage;

    DamagedBase(WorkerException damage) {
        super(damage.getMessage(), damage);
        this.damage = damage;
    }

    /** What was wrong, naming the object. */
    WorkerException damage() {
        return damage;
    }

    /** Whether a failure reading a base says the object itself is damaged (not the store, the disk or the run). */
    static boolean isDamage(ErrorCode code) {
        return DAMAGE.contains(code);
    }
}
