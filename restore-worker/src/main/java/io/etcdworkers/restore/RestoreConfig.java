package io.etcdworkers.restore;

import io.etcdworkers.rebuild.RebuildConfig;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A restore: a rebuild, and where its verified database is placed.
 *
 * @param rebuild how the database is rebuilt and verified
 * @param dataDir where the restored data dir is placed (built in {@code <data-dir>.part})
 * @param force replace an existing non-empty data dir
 */
public record RestoreConfig(RebuildConfig rebuild, Path dataDir, boolean force) {

    public RestoreConfig {
        Objects.requireNonNull(rebuild, "rebuild");
        Objects.requireNonNull(dataDir, "dataDir");
        dataDir = dataDir.toAbsolutePath().normalize();
        if (dataDir.getParent() == null) {
            throw new IllegalArgumentException("--data-dir cannot be the root directory");
        }
    }
}
