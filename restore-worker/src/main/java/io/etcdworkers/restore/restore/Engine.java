package io.etcdworkers.restore.restore;

import java.util.Locale;

/** How deltas become the restored database ({@code --engine}). */
public enum Engine {
    /** Replay every revision into a scratch etcd (exact, slow, proven). */
    REPLAY,
    /** Fold the deltas offline and write the compacted database directly; refuse if it cannot. */
    OFFLINE,
    /** The offline engine, falling back to the replay when the base's format or the check surprises it. */
    AUTO;

    public String flagValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
