package io.etcdworkers.rebuild.bump;

import java.util.List;
import java.util.Objects;

/**
 * The revision a bucket's snapshot chain reaches, as its newest sound object confirms it (see
 * {@link ChainEndReader}).
 *
 * @param revision the last revision of the newest object that checks out (the base's when none after it does)
 * @param object that object's key
 * @param damaged newer objects of the chain that did not check out, newest first
 * @param ignored objects named above {@code revision} that do not continue the chain, by key
 */
public record ChainEnd(long revision, String object, List<Damaged> damaged, List<String> ignored) {
    public ChainEnd {
        Objects.requireNonNull(object, "object");
        damaged = List.copyOf(damaged);
        ignored = List.copyOf(ignored);
    }

    /**
     * A chain object whose content does not hold what its name says.
     *
     * @param object its key
     * @param reason what reading it found
     */
    public record Damaged(String object, String reason) {}
}
