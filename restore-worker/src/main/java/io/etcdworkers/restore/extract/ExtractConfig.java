package io.etcdworkers.restore.extract;

import io.etcdworkers.restore.engine.KeyPrefix;
import io.etcdworkers.restore.rebuild.RebuildConfig;
import java.nio.file.Path;
import java.util.Objects;

/**
 * An extract: the rebuild (to a point in time), the prefix wanted, and where it goes.
 *
 * @param rebuild the rebuild, its {@code keys} the prefix
 * @param output the directory to create: files, or a data dir
 * @param format files or an etcd data dir
 * @param force replace a non-empty output dir
 */
public record ExtractConfig(RebuildConfig rebuild, Path output, OutputFormat format, boolean force) {
    public ExtractConfig {
        Objects.requireNonNull(rebuild, "rebuild");
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(format, "format");
        if (rebuild.keys().isAll()) {
            throw new IllegalArgumentException("an extract needs a key prefix");
        }
    }

    public KeyPrefix prefix() {
        return rebuild.keys();
    }
}
