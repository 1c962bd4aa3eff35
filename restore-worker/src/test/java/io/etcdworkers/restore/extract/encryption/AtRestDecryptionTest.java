package io.etcdworkers.restore.extract.encryption;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.restore.extract.encryption.EncryptionVectors.Vector;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which key opens which value, as kube-apiserver chooses: the name in the prefix picks the key,
 * any listed key (an old one after a rotation) may decrypt, identity anywhere changes nothing; KMS
 * values and values without a configuration are written as stored and counted; a value the
 * configuration should decrypt and does not is a failure naming the key and the etcd key.
 */
@Timeout(30)
class AtRestDecryptionTest {
    private static final Map<String, String> SECRETS = EncryptionVectors.secrets();

    @TempDir
    Path dir;

    @Test
    void theNameInThePrefixPicksTheKeyWhateverItsPlaceInTheList() throws IOException {
        // identity first (a cluster moving away from encryption), the old key first, then the new one
        AtRestDecryption decryption = with("""
                  - resources: [secrets]
                    providers:
                      - identity: {}
                      - aescbc:
                          keys:
                            - {name: key-2025, secret: %s}
                            - {name: key-2026, secret: %s}
                """.formatted(SECRETS.get("key-2025"), SECRETS.get("key-2026")));

        for (Vector v : vectors("key-2026", "key-2025")) {
            OpenedValue opened = decryption.open(v.etcdKeyBytes(), v.stored());
            assertThat(opened.value()).as(v.etcdKey()).isEqualTo(v.plaintext());
        }
        assertThat(decryption.summary().uses())
                .extracting(u -> u.origin().name() + "=" + u.decrypted())
                .containsExactly("key-2025=3", "key-2026=5");
    }

    @Test
    void aNameGivenTwoSecretsInTwoEntriesIsTriedWithEachInTurn() throws IOException {
        String wrong = Base64.getEncoder().encodeToString(new byte[32]);
        AtRestDecryption decryption = with("""
                  - resources: [configmaps]
                    providers:
                      - aesgcm:
                          keys: [{name: gcm-256, secret: %s}]
                      - secretbox:
                          keys: [{name: sb-1, secret: %s}]
                  - resources: [secrets]
                    providers:
                      - secretbox:
                          keys: [{name: sb-1, secret: %s}]
                      - aesgcm:
                          keys: [{name: gcm-256, secret: %s}]
                """.formatted(wrong, wrong, SECRETS.get("sb-1"), SECRETS.get("gcm-256")));

        for (Vector v : vectors("gcm-256", "sb-1")) {
            assertThat(decryption.open(v.etcdKeyBytes(), v.stored()).value())
                    .as(v.etcdKey())
                    .isEqualTo(v.plaintext());
        }
        assertThat(decryption.summary().failed()).isZero();
    }

    @Test
    void kmsValuesAreWrittenAsStoredNamingThePluginTheyNeed() {
        AtRestDecryption decryption =
                AtRestDecryption.of(Optional.of(EncryptionConfiguration.read(EncryptionVectors.yamlConfig())));

        for (Vector v : EncryptionVectors.all().stream().filter(Vector::kms).toList()) {
            OpenedValue opened = decryption.open(v.etcdKeyBytes(), v.stored());
            assertThat(opened.decrypted()).isFalse();
            assertThat(opened.value()).isEqualTo(v.stored());
        }

        EncryptionSummary summary = decryption.summary();
        assertThat(summary.failure(dir)).isEmpty();
        assertThat(summary.leftEncrypted()).isEqualTo(4);
        assertThat(summary.leftEncryptedBy()).containsExactly(Map.entry("kms", 4L));
        assertThat(summary.uses())
                .extracting(u -> u.origin().version() + " " + u.origin().name() + " " + u.leftEncrypted() + " "
                        + u.plugin().map(KmsPlugin::endpoint).orElse("-"))
                .containsExactly(
                        "v1 legacy-kms 1 unix:///var/run/kms/legacy.sock",
                        "v2 gardener-kms 2 unix:///var/run/kms/kms.sock",
                        "v2 other-kms 1 -");
        assertThat(summary.warnings())
                .containsExactly(
                        "kms v1 provider \"legacy-kms\": 1 value written as stored (first /registry/secrets/team-a/legacy-kms-0)"
                                + ": KMS wraps each value's data key with a key only its plugin holds; the configuration's "
                                + "plugin for it is at unix:///var/run/kms/legacy.sock (resources[1].providers[2].kms): read "
                                + "these values through a kube-apiserver that reaches that plugin",
                        "kms v2 provider \"gardener-kms\": 2 values written as stored (first "
                                + "/registry/secrets/team-a/gardener-kms-0): KMS wraps each value's data key with a key only its "
                                + "plugin holds; the configuration's plugin for it is at unix:///var/run/kms/kms.sock "
                                + "(resources[0].providers[3].kms): read these values through a kube-apiserver that reaches "
                                + "that plugin",
                        "kms v2 provider \"other-kms\": 1 value written as stored (first /registry/secrets/team-a/other-kms-0): "
                                + "KMS wraps each value's data key with a key only its plugin holds; the configuration has no "
                                + "kms provider of that name: read these values through a kube-apiserver that reaches that "
                                + "plugin");
    }

    @Test
    void withoutAConfigurationEveryEncryptedValueIsWrittenAsStoredAndPlainOnesAsTheyAre() {
        AtRestDecryption decryption = AtRestDecryption.of(Optional.empty());

        for (Vector v : EncryptionVectors.all()) {
            OpenedValue opened = decryption.open(v.etcdKeyBytes(), v.stored());
            assertThat(opened.value()).isEqualTo(v.stored());
            assertThat(opened.encryption()).isPresent();
        }
        byte[] plain = "k8s\0plain".getBytes(StandardCharsets.ISO_8859_1);
        assertThat(decryption.open("/registry/secrets/a/b".getBytes(StandardCharsets.UTF_8), plain))
                .isEqualTo(new OpenedValue(plain, Optional.empty(), false));

        EncryptionSummary summary = decryption.summary();
        assertThat(summary.decrypted()).isZero();
        assertThat(summary.failure(dir)).isEmpty();
        assertThat(summary.leftEncrypted()).isEqualTo(EncryptionVectors.all().size());
        assertThat(summary.leftEncryptedBy()).containsOnlyKeys("aescbc", "aesgcm", "secretbox", "kms");
        assertThat(summary.warnings())
                .contains("aescbc key \"key-2025\": 3 values written as stored (first "
                        + "/registry/secrets/team-a/key-2025-0): give --encryption-config (the API server's "
                        + "EncryptionConfiguration) to decrypt them");
    }

    @Test
    void aKeyNameTheConfigurationLacksOrASecretThatDoesNotOpenIsAFailureNamingBoth() throws IOException {
        String wrong = Base64.getEncoder().encodeToString(new byte[32]);
        AtRestDecryption decryption = with("""
                  - resources: [secrets]
                    providers:
                      - aesgcm:
                          keys: [{name: gcm-256, secret: %s}]
                      - secretbox:
                          keys: [{name: sb-1, secret: %s}]
                """.formatted(wrong, SECRETS.get("sb-1")));

        for (Vector v : vectors("gcm-256", "sb-1", "key-2025")) {
            decryption.open(v.etcdKeyBytes(), v.stored());
        }

        EncryptionSummary summary = decryption.summary();
        assertThat(summary.decryptedBy()).containsExactly(Map.entry("secretbox", 5L));
        WorkerException failure = summary.failure(dir.resolve("out")).orElseThrow();
        assertThat(failure.code()).isEqualTo(ErrorCode.USAGE);
        assertThat(failure.getMessage())
                .startsWith("--encryption-config " + dir.resolve("encryption.yaml")
                        + " does not decrypt 7 values: aescbc key \"key-2025\": 3 values, first "
                        + "/registry/secrets/team-a/key-2025-0: the configuration has no aescbc key of that name; aesgcm key "
                        + "\"gcm-256\": 4 values, first /registry/secrets/team-a/gcm-256-0: the configuration's key of that "
                        + "name does not decrypt it (resources[0].providers[0].aesgcm.keys[0]: message authentication "
                        + "failed). Nothing was written to " + dir.resolve("out") + ".");
        for (String form : EncryptionVectors.secretForms()) {
            assertThat(failure.getMessage()).doesNotContain(form);
        }
        assertThat(failure.getMessage()).doesNotContain(wrong);
    }

    @Test
    void aValueOfAProviderNoOneKnowsIsWrittenAsStored() {
        AtRestDecryption decryption =
                AtRestDecryption.of(Optional.of(EncryptionConfiguration.read(EncryptionVectors.yamlConfig())));
        byte[] stored = "k8s:enc:aesctr:v9:k\u00e9y:data".getBytes(StandardCharsets.UTF_8);

        OpenedValue opened = decryption.open("/registry/x".getBytes(StandardCharsets.UTF_8), stored);

        assertThat(opened.value()).isEqualTo(stored);
        assertThat(opened.encryption()).contains(new StoredPrefix("aesctr", "v9", "k%C3%A9y"));
        assertThat(decryption.summary().failure(dir)).isEmpty();
        assertThat(decryption.summary().warnings())
                .containsExactly("provider \"aesctr\" v9: 1 value written as "
                        + "stored (first /registry/x): not a provider this worker knows");
    }

    private AtRestDecryption with(String resources) throws IOException {
        Path file = dir.resolve("encryption.yaml");
        Files.writeString(
                file,
                "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n" + resources);
        return AtRestDecryption.of(Optional.of(EncryptionConfiguration.read(file)));
    }

    private static List<Vector> vectors(String... keyNames) {
        List<String> names = List.of(keyNames);
        return EncryptionVectors.all().stream()
                .filter(v -> names.contains(v.keyName()))
                .toList();
    }
}
