package io.etcdworkers.rebuild.verify;

import java.util.Locale;

/** How much of the keyspace the verification asks the verifying etcd to serve ({@code --verify-read}). */
public enum VerifyScope {
    /**
     * etcd's HashKV and key count, plus a sample of ranges; every key is still checked once, in
     * the database file (offline engine only: the replay has no file of its own to compare with).
     */
    SAMPLE,
    /** Every key, range by range, digested and compared (the replay always reads this way). */
    ALL;

    /** The name in flags and in the result JSON. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
