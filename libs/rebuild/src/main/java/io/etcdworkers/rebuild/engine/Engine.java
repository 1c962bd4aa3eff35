package io.etcdworkers.rebuild.engine;

import java.util.Locale;

/** How deltas become the rebuilt database ({@code --engine}); the outcome names the one that built it. */
public enum Engine {
    /** Replay every revision into a scratch etcd (exact, slow, proven). */
    REPLAY,
    /** Fold the deltas offline and write the compacted database directly; refuse if it cannot. */
    OFFLINE,
    /** The offline engine, falling back to the replay when the base's format or the check surprises it. */
    AUTO;

    /** The name in flags and in the result JSON. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
