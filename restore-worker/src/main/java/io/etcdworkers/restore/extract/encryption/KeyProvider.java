package io.etcdworkers.restore.extract.encryption;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The providers whose values kube-apiserver encrypts with a key written in its
 * EncryptionConfiguration, so the worker can decrypt them given that file. Each stores {@code
 * k8s:enc:<name>:v1:<key name>:} and then its own format. KMS is not one: its data key is
 * encrypted by a plugin the worker cannot reach.
 */
public enum KeyProvider {
    AESCBC("aescbc", List.of(16, 24, 32)) {
        @Override
        byte[] open(byte[] secret, byte[] data, byte[] etcdKey) throws CannotDecrypt {
            return AesCbc.open(secret, data);
        }
    },
    AESGCM("aesgcm", List.of(16, 24, 32)) {
        @Override
        byte[] open(byte[] secret, byte[] data, byte[] etcdKey) throws CannotDecrypt {
            return AesGcm.open(secret, data, etcdKey);
        }
    },
    SECRETBOX("secretbox", List.of(32)) {
        @Override
        byte[] open(byte[] secret, byte[] data, byte[] etcdKey) throws CannotDecrypt {
            return Secretbox.open(secret, data);
        }
    };

    private final String configName;
    private final List<Integer> keySizes;

    KeyProvider(String configName, List<Integer> keySizes) {
        this.configName = configName;
        this.keySizes = keySizes;
    }

    /** The provider's field in the configuration and its word in the stored prefix. */
    public String configName() {
        return configName;
    }

    /** The secret lengths in bytes kube-apiserver's validation accepts. */
    List<Integer> keySizes() {
        return keySizes;
    }

    /**
     * The value's plaintext.
     *
     * @param data what follows the prefix {@code k8s:enc:<name>:v1:<key name>:}
     * @param etcdKey the key the value is stored under (AES-GCM authenticates it)
     */
    abstract byte[] open(byte[] secret, byte[] data, byte[] etcdKey) throws CannotDecrypt;

    static Optional<KeyProvider> named(String configName) {
        return Arrays.stream(values())
                .filter(p -> p.configName.equals(configName))
                .findFirst();
    }
}
