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
 * @param bump how much to raise the placed database's revision ({@code --bump-revision})
 */
public record RestoreConfig(RebuildConfig rebuild, Path dataDir, boolean force, BumpSetting bump) {

    /** A restore with the default bump (point in time: past the bucket's latest revision). */
    public RestoreConfig(RebuildConfig rebuild, Path dataDir, boolean force) {
        this(rebuild, dataDir, force, BumpSetting.byDefault());
    }

    public RestoreConfig {
        Objects.requireNonNull(rebuild, "rebuild");
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(bump, "bump");
        dataDir = dataDir.toAbsolutePath().normalize();
        if (dataDir.getParent() == null) {
            throw new IllegalArgumentException("--data-dir cannot be the root directory");
        }
    }
}
