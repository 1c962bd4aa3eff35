package io.etcdworkers.rebuild.bump;

/**
 * A revision bump as {@code etcdutl snapshot restore --bump-revision N --mark-compacted} makes it:
 * the database's latest revision {@code latest} raised by {@code amount} to {@link #revision()},
 * everything up to that revision marked compacted.
 *
 * @param latest the highest main revision in the database's {@code key} bucket before the bump (0 when empty)
 * @param amount how much it was raised, {@code N}, positive
 */
public record RevisionBump(long latest, long amount) {
    public RevisionBump {
        if (latest < 0) {
            throw new IllegalArgumentException("latest revision " + latest + " is negative");
        }
        if (amount <= 0) {
            throw new IllegalArgumentException("a bump must be positive, not " + amount);
        }
        if (latest > Long.MAX_VALUE - amount) {
            throw new IllegalArgumentException("revision " + latest + " plus " + amount + " overflows");
        }
    }

    /** The revision etcd opens the bumped database at: {@code latest + amount}. */
    public long revision() {
        return latest + amount;
    }
}
