package io.etcdworkers.restore.extract.encryption;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One key of an {@code aescbc}, {@code aesgcm} or {@code secretbox} provider in the configuration.
 * {@link #toString()} names it and where it is written, never its secret.
 *
 * @param provider the provider it belongs to
 * @param name its name: values it encrypted start {@code k8s:enc:<provider>:v1:<name>:}
 * @param secret the decoded secret (16, 24 or 32 bytes for AES, 32 for secretbox)
 * @param where its place in the file, e.g. {@code resources[0].providers[1].aescbc.keys[0]}
 */
public record DataKey(KeyProvider provider, String name, byte[] secret, String where) {
    public DataKey {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(where, "where");
        secret = secret.clone();
    }

    /** The prefix of the values this key encrypted. */
    public byte[] prefix() {
        return ("k8s:enc:" + provider.configName() + ":v1:" + name + ":").getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] secret() {
        return secret.clone();
    }

    /** The value's plaintext; {@code data} is what follows {@link #prefix()}. */
    byte[] open(byte[] data, byte[] etcdKey) throws CannotDecrypt {
        return provider.open(secret, data, etcdKey);
    }

    /** Whether {@code other} is this key under the same name (listed again for another resource). */
    boolean sameAs(DataKey other) {
        return provider == other.provider && name.equals(other.name) && Arrays.equals(secret, other.secret);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DataKey k && sameAs(k) && where.equals(k.where);
    }

    @Override
    public int hashCode() {
        return Objects.hash(provider, name, where);
    }

    @Override
    public String toString() {
        return provider.configName() + " key \"" + name + "\" (" + where + ")";
    }
}
