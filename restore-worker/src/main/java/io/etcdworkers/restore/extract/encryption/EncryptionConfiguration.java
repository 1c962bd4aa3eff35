package io.etcdworkers.restore.extract.encryption;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What the worker takes from a kube-apiserver EncryptionConfiguration: every key of its {@code
 * aescbc}, {@code aesgcm} and {@code secretbox} providers and every {@code kms} provider, over all
 * its {@code resources} entries, in the file's order. {@code identity} needs nothing: a value
 * without a {@code k8s:enc:} prefix is stored as it is.
 *
 * <p>A stored value's prefix names its provider and key, not its resource, so the keys of every
 * entry are candidates for every value; as kube-apiserver does within a resource's providers, each
 * key whose prefix the value has is tried in turn and the first that opens it wins (an old key
 * after a rotation still reads what it wrote).
 *
 * @param file where it was read from
 * @param keys the providers' keys in the file's order
 * @param plugins the KMS providers in the file's order
 */
public record EncryptionConfiguration(Path file, List<DataKey> keys, List<KmsPlugin> plugins) {
    public EncryptionConfiguration {
        Objects.requireNonNull(file, "file");
        keys = List.copyOf(keys);
        plugins = List.copyOf(plugins);
    }

    /** Reads and checks {@code file} (YAML or JSON); {@code USAGE} with the field at fault otherwise. */
    public static EncryptionConfiguration read(Path file) {
        return EncryptionConfigReader.read(file);
    }
}
