package io.etcdworkers.restore.extract;

import io.etcdworkers.rebuild.RebuildConfig;
import io.etcdworkers.rebuild.engine.KeyPrefix;
import io.etcdworkers.restore.BumpSetting;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * An extract: the rebuild (to a point in time), the prefix wanted, and where it goes.
 *
 * @param rebuild the rebuild, its {@code keys} the prefix
 * @param output the directory to create: files, or a data dir
 * @param format files or an etcd data dir
 * @param force replace a non-empty output dir
 * @param encryptionConfig kube-apiserver's EncryptionConfiguration, to decrypt values encrypted at
 *     rest ({@link OutputFormat#files} only: a data dir keeps every value as stored)
 */
public record ExtractConfig(
        RebuildConfig rebuild,
        Path output,
        OutputFormat format,
        boolean force,
        Optional<Path> encryptionConfig,
        BumpSetting bump) {
    public ExtractConfig {
        Objects.requireNonNull(rebuild, "rebuild");
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(encryptionConfig, "encryptionConfig");
        Objects.requireNonNull(bump, "bump");
        if (!bump.isDefault() && format != OutputFormat.etcd) {
            throw new IllegalArgumentException("--bump-revision raises a data dir's revision: files have none");
        }
        if (rebuild.keys().isAll()) {
            throw new IllegalArgumentException("an extract needs a key prefix");
        }
        if (encryptionConfig.isPresent() && format != OutputFormat.files) {
            throw new IllegalArgumentException("values are decrypted into files only: a data dir keeps them as stored");
        }
    }

    /** An extract with the default revision bump of its data dir ({@link BumpSetting}). */
    public ExtractConfig(
            RebuildConfig rebuild, Path output, OutputFormat format, boolean force, Optional<Path> encryptionConfig) {
        this(rebuild, output, format, force, encryptionConfig, BumpSetting.byDefault());
    }

    /** An extract that writes every value as stored. */
    public ExtractConfig(RebuildConfig rebuild, Path output, OutputFormat format, boolean force) {
        this(rebuild, output, format, force, Optional.empty());
    }

    public KeyPrefix prefix() {
        return rebuild.keys();
    }
}
