package io.etcdworkers.format;

import java.util.Optional;

/** The two kinds of snapshot object, with the name token etcd-backup-restore uses for each. */
public enum SnapshotKind {
    FULL("Full"),
    DELTA("Incr");

    private final String token;

    SnapshotKind(String token) {
        this.token = token;
    }

    /** The token in object names: {@code Full} or {@code Incr}. */
    public String token() {
        return token;
    }

    static Optional<SnapshotKind> fromToken(String token) {
        for (SnapshotKind kind : values()) {
            if (kind.token.equals(token)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }
}
