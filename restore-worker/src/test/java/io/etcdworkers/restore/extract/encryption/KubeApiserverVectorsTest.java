package io.etcdworkers.restore.extract.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.restore.extract.encryption.EncryptionVectors.Vector;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Values encrypted by other implementations than the worker's (openssl for aescbc, Python's
 * cryptography for aesgcm, PyNaCl/libsodium for secretbox, as kube-apiserver lays them out) decrypt
 * to their plaintext with the keys of the EncryptionConfiguration, read as YAML and as JSON; and a
 * changed byte, another etcd key (AES-GCM's authenticated data) or another secret does not.
 */
@Timeout(60)
class KubeApiserverVectorsTest {

    static Stream<Vector> decryptable() {
        return EncryptionVectors.decryptable().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decryptable")
    void everyVectorDecryptsToItsPlaintext(Vector vector) {
        for (Path file : List.of(EncryptionVectors.yamlConfig(), EncryptionVectors.jsonConfig())) {
            AtRestDecryption decryption = AtRestDecryption.of(Optional.of(EncryptionConfiguration.read(file)));

            OpenedValue opened = decryption.open(vector.etcdKeyBytes(), vector.stored());

            assertThat(opened.decrypted())
                    .as("%s with %s", vector.etcdKey(), file.getFileName())
                    .isTrue();
            assertThat(opened.value()).isEqualTo(vector.plaintext());
            assertThat(opened.encryption()).contains(new StoredPrefix(vector.provider(), "v1", vector.keyName()));
            assertThat(decryption.summary().decryptedBy()).containsExactly(Map.entry(vector.provider(), 1L));
        }
    }

    @Test
    void theVectorsCoverEveryProviderKeySizeAndBlockBoundary() {
        List<Vector> vectors = EncryptionVectors.decryptable();
        assertThat(vectors).extracting(Vector::provider).contains("aescbc", "aesgcm", "secretbox");
        EncryptionConfiguration config = EncryptionConfiguration.read(EncryptionVectors.yamlConfig());
        assertThat(config.keys())
                .extracting(k -> k.provider().configName() + "/" + k.secret().length)
                .contains("aescbc/16", "aescbc/24", "aescbc/32", "aesgcm/16", "aesgcm/24", "aesgcm/32", "secretbox/32");
        assertThat(vectors)
                .filteredOn(v -> v.provider().equals("aescbc"))
                .extracting(v -> v.plaintext().length % 16)
                .contains(0, 1, 15);
        assertThat(vectors)
                .filteredOn(v -> v.plaintext().length == 0)
                .extracting(Vector::provider)
                .contains("aescbc", "aesgcm", "secretbox");
        assertThat(vectors).filteredOn(v -> v.plaintext().length > 4096).hasSizeGreaterThanOrEqualTo(3);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decryptable")
    void aChangedByteAnywhereAfterThePrefixIsRefusedByTheAuthenticatedProviders(Vector vector) throws Exception {
        DataKey key = key(vector);
        byte[] data = Arrays.copyOfRange(vector.stored(), key.prefix().length, vector.stored().length);
        if (vector.provider().equals("aescbc")) {
            // CBC authenticates nothing: a changed last block breaks its padding, which is all kube-apiserver checks
            data[data.length - 1] ^= 0x01;
            assertThatThrownBy(() -> key.open(data, vector.etcdKeyBytes())).isInstanceOf(CannotDecrypt.class);
            return;
        }
        for (int at : new int[] {0, data.length / 2, data.length - 1}) {
            byte[] changed = data.clone();
            changed[at] ^= 0x01;
            assertThatThrownBy(() -> key.open(changed, vector.etcdKeyBytes()))
                    .as("byte %d changed", at)
                    .isInstanceOf(CannotDecrypt.class)
                    .hasMessage("message authentication failed");
        }
    }

    @Test
    void anAesGcmValueOpensOnlyUnderTheEtcdKeyItWasWrittenFor() throws Exception {
        for (Vector vector : EncryptionVectors.decryptable()) {
            DataKey key = key(vector);
            byte[] data = Arrays.copyOfRange(vector.stored(), key.prefix().length, vector.stored().length);
            byte[] otherKey = (vector.etcdKey() + "-copy").getBytes(StandardCharsets.UTF_8);
            if (vector.provider().equals("aesgcm")) {
                assertThatThrownBy(() -> key.open(data, otherKey))
                        .as(vector.etcdKey())
                        .isInstanceOf(CannotDecrypt.class);
            } else {
                assertThat(key.open(data, otherKey))
                        .as("%s: no authenticated data", vector.provider())
                        .isEqualTo(vector.plaintext());
            }
        }
    }

    @Test
    void valuesTooShortForTheirFormatAreRefusedWithKubeApiserversReason() {
        byte[] key32 = new byte[32];
        assertThatThrownBy(() -> AesCbc.open(key32, new byte[15])).hasMessageContaining("shorter than the required");
        assertThatThrownBy(() -> AesCbc.open(key32, new byte[33])).hasMessageContaining("multiple of the block size");
        assertThatThrownBy(() -> AesCbc.open(key32, new byte[16])).hasMessageContaining("invalid PKCS7 data");
        assertThatThrownBy(() -> AesGcm.open(key32, new byte[11], new byte[0]))
                .hasMessageContaining("shorter than the required");
        assertThatThrownBy(() -> AesGcm.open(key32, new byte[27], new byte[0]))
                .hasMessage("message authentication failed");
        assertThatThrownBy(() -> Secretbox.open(key32, new byte[39])).hasMessageContaining("shorter than the required");
    }

    private static DataKey key(Vector vector) {
        return EncryptionConfiguration.read(EncryptionVectors.yamlConfig()).keys().stream()
                .filter(k -> k.name().equals(vector.keyName()))
                .findFirst()
                .orElseThrow();
    }
}
