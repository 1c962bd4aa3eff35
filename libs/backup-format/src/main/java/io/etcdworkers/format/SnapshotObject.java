package io.etcdworkers.format;

import io.etcdworkers.store.ObjectInfo;
import java.util.Objects;

/**
 * A snapshot found in a store listing: where it is and what its name says.
 *
 * @param info the listing entry (key and size)
 * @param name the parsed name
 */
public record SnapshotObject(ObjectInfo info, SnapshotName name) {
    public SnapshotObject {
        Objects.requireNonNull(info, "info");
        Objects.requireNonNull(name, "name");
    }

    public String key() {
        return info.key();
    }

    public long size() {
        return info.size();
    }

    public boolean isFull() {
        return name.kind() == SnapshotKind.FULL;
    }

    @Override
    public String toString() {
        return info.key();
    }
}
