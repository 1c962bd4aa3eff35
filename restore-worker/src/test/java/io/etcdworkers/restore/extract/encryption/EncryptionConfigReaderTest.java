package io.etcdworkers.restore.extract.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The EncryptionConfiguration as kube-apiserver takes it: YAML and JSON alike, every provider's
 * keys in the file's order across resources entries, {@code identity} and {@code kms} anywhere; a
 * file it would refuse is exit 2 naming the field, and no message quotes a secret.
 */
@Timeout(30)
class EncryptionConfigReaderTest {
    private static final String K32 = Base64.getEncoder().encodeToString(bytes(32, 1));
    private static final String K16 = Base64.getEncoder().encodeToString(bytes(16, 2));
    private static final String K24 = Base64.getEncoder().encodeToString(bytes(24, 3));

    @TempDir
    Path dir;

    @Test
    void theFixturesYamlAndJsonAreTheSameConfiguration() {
        EncryptionConfiguration yaml = EncryptionConfiguration.read(EncryptionVectors.yamlConfig());
        EncryptionConfiguration json = EncryptionConfiguration.read(EncryptionVectors.jsonConfig());

        assertThat(yaml.keys()).isEqualTo(json.keys());
        assertThat(yaml.plugins()).isEqualTo(json.plugins());
        assertThat(yaml.keys())
                .extracting(DataKey::name)
                .containsExactly("key-2026", "key-2025", "sb-1", "gcm-256", "gcm-128", "key-192", "gcm-192");
        assertThat(yaml.plugins())
                .containsExactly(
                        new KmsPlugin(
                                "v2", "gardener-kms", "unix:///var/run/kms/kms.sock", "resources[0].providers[3].kms"),
                        new KmsPlugin(
                                "v1",
                                "legacy-kms",
                                "unix:///var/run/kms/legacy.sock",
                                "resources[1].providers[2].kms"));
    }

    @Test
    void identityFirstAndSeveralKeysPerProviderKeepTheirOrder() throws IOException {
        EncryptionConfiguration config = read("""
                apiVersion: apiserver.config.k8s.io/v1
                kind: EncryptionConfiguration
                resources:
                  - resources: [secrets, configmaps]
                    providers:
                      - identity: {}
                      - aesgcm:
                          keys:
                            - {name: new, secret: %s}
                            - {name: old, secret: %s}
                      - secretbox:
                          keys:
                            - name: box
                              secret: %s
                  - resources: ['*.*']
                    providers:
                      - aescbc:
                          keys: [{name: cbc, secret: %s}]
                """.formatted(K32, K16, K32, K24));

        assertThat(config.keys())
                .extracting(k -> k.provider().configName() + ":" + k.name() + ":" + k.where())
                .containsExactly(
                        "aesgcm:new:resources[0].providers[1].aesgcm.keys[0]",
                        "aesgcm:old:resources[0].providers[1].aesgcm.keys[1]",
                        "secretbox:box:resources[0].providers[2].secretbox.keys[0]",
                        "aescbc:cbc:resources[1].providers[0].aescbc.keys[0]");
        assertThat(config.keys().get(1).secret()).isEqualTo(bytes(16, 2));
        assertThat(config.plugins()).isEmpty();
    }

    @Test
    void aKmsProviderWithoutApiVersionIsV1AsKubeApiserverDefaultsIt() throws IOException {
        EncryptionConfiguration config = read("""
                {"apiVersion": "apiserver.config.k8s.io/v1", "kind": "EncryptionConfiguration",
                 "resources": [{"resources": ["secrets"], "providers": [
                   {"kms": {"name": "vault", "endpoint": "unix:///kms/vault.sock", "cachesize": 10}},
                   {"kms": {"apiVersion": "v2", "name": "aws", "endpoint": "unix:///kms/aws.sock"}},
                   {"identity": {}}]}]}
                """);

        assertThat(config.plugins())
                .extracting(KmsPlugin::apiVersion, KmsPlugin::name)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("v1", "vault"),
                        org.assertj.core.groups.Tuple.tuple("v2", "aws"));
        assertThat(new String(config.plugins().get(1).prefix())).isEqualTo("k8s:enc:kms:v2:aws:");
    }

    @Test
    void aSecretWithLineBreaksDecodesAsGoDecodesIt() throws IOException {
        String folded = K32.substring(0, 20) + "\\n" + K32.substring(20);
        EncryptionConfiguration config = read(config("aescbc", "k", "\"" + folded + "\""));
        assertThat(config.keys().get(0).secret()).isEqualTo(bytes(32, 1));
    }

    private static final String HEAD = "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n";

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of(
                        "wrong kind",
                        "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfig\n" + "resources: []",
                        "not an EncryptionConfiguration: expected apiVersion "
                                + "apiserver.config.k8s.io/v1 and kind EncryptionConfiguration, got apiVersion "
                                + "\"apiserver.config.k8s.io/v1\" and kind \"EncryptionConfig\""),
                Arguments.of("no resources", HEAD, "resources: at least one is required"),
                Arguments.of(
                        "no providers",
                        HEAD + "resources: [{resources: [secrets], providers: []}]",
                        "resources[0].providers: at least one is required"),
                Arguments.of(
                        "two providers in one element",
                        HEAD + "resources: [{resources: [secrets], providers: "
                                + "[{identity: {}, aescbc: {keys: []}}]}]",
                        "resources[0].providers[0]: more than one provider "
                                + "specified in a single element (aescbc, identity)"),
                Arguments.of(
                        "unknown provider",
                        HEAD + "resources: [{resources: [secrets], providers: [{aesctr: {}}]}]",
                        "resources[0].providers[0]: provider does not contain any of the expected providers"),
                Arguments.of(
                        "no keys",
                        HEAD + "resources: [{resources: [secrets], providers: [{aesgcm: {}}]}]",
                        "resources[0].providers[0].aesgcm.keys: at least one is required"),
                Arguments.of(
                        "kms v3",
                        HEAD + "resources: [{resources: [secrets], providers: [{kms: {name: k, "
                                + "apiVersion: v3}}]}]",
                        "resources[0].providers[0].kms.apiVersion: unsupported apiVersion v3"),
                Arguments.of(
                        "kms without a name",
                        HEAD + "resources: [{resources: [secrets], providers: [{kms: "
                                + "{endpoint: 'unix:///k.sock'}}]}]",
                        "resources[0].providers[0].kms.name: name is a mandatory"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void aFileKubeApiserverRefusesIsAUsageErrorNamingTheField(String name, String yaml, String message)
            throws IOException {
        assertUsage(yaml, message);
    }

    @Test
    void aKeyIsRefusedForItsNameItsEncodingOrItsLengthWithoutShowingTheSecret() throws IOException {
        assertUsage(config("aescbc", "''", K32), "resources[0].providers[0].aescbc.keys[0].name: name is a mandatory");
        assertUsage(
                config("aesgcm", "k1", "''"), "resources[0].providers[0].aesgcm.keys[0].secret: secret is a mandatory");
        String notBase64 = "NotBase64SecretValue!!";
        WorkerException e = assertUsage(
                config("aescbc", "k1", notBase64),
                "resources[0].providers[0].aescbc.keys[0].secret (key \"k1\"): secrets must be base64 encoded");
        assertThat(e.getMessage()).doesNotContain(notBase64);
        e = assertUsage(
                config("secretbox", "k2", K16),
                "(key \"k2\"): secret is not of the expected length, got 16 " + "bytes, expected one of [32]");
        assertThat(e.getMessage()).doesNotContain(K16);
        assertUsage(
                config("aescbc", "k3", Base64.getEncoder().encodeToString(new byte[20])),
                "got 20 bytes, expected one of [16, 24, 32]");
        assertUsage(config("aescbc", "12345", K32).replace("name: \"12345\"", "name: 12345"), "name: must be a string");
    }

    @Test
    void aFileThatDoesNotParseIsNamedByLineAndColumnNeverQuoted() throws IOException {
        String secretish = "SeCrEtLiNe" + K32;
        WorkerException yaml = assertUsage(
                "apiVersion: apiserver.config.k8s.io/v1\nkind: [\n  " + secretish + ": : :\n", "not valid YAML (line ");
        assertThat(yaml.getMessage()).doesNotContain(secretish).doesNotContain("SeCrEt");
        WorkerException json = assertUsage(
                "{\"apiVersion\": \"apiserver.config.k8s.io/v1\", " + secretish + "}",
                "not valid JSON (line 1, column ");
        assertThat(json.getMessage()).doesNotContain("SeCrEt");
        assertUsage("   \n", "the file is empty");
        assertUsage("- a list\n", "not an EncryptionConfiguration");
    }

    @Test
    void aMissingFileIsAUsageError() {
        assertThatThrownBy(() -> EncryptionConfiguration.read(dir.resolve("absent.yaml")))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.USAGE))
                .hasMessage("--encryption-config " + dir.resolve("absent.yaml") + ": no such file");
    }

    @Test
    void aKeysToStringNamesItButNeverShowsItsSecret() {
        DataKey key = EncryptionConfiguration.read(EncryptionVectors.yamlConfig())
                .keys()
                .get(0);
        assertThat(key.toString()).isEqualTo("aescbc key \"key-2026\" (resources[0].providers[0].aescbc.keys[0])");
        for (String form : EncryptionVectors.secretForms()) {
            assertThat(key.toString()).doesNotContain(form);
        }
    }

    private static String config(String provider, String name, String secret) {
        return """
                apiVersion: apiserver.config.k8s.io/v1
                kind: EncryptionConfiguration
                resources:
                  - resources: [secrets]
                    providers:
                      - %s:
                          keys:
                            - name: %s
                              secret: %s
                """.formatted(provider, name.equals("''") ? name : "\"" + name + "\"", secret);
    }

    private EncryptionConfiguration read(String text) throws IOException {
        Path file = Files.createTempFile(dir, "encryption", ".yaml");
        Files.writeString(file, text);
        return EncryptionConfiguration.read(file);
    }

    private WorkerException assertUsage(String text, String message) throws IOException {
        Path file = Files.createTempFile(dir, "encryption", ".yaml");
        Files.writeString(file, text);
        WorkerException e = org.junit.jupiter.api.Assertions.assertThrows(
                WorkerException.class, () -> EncryptionConfiguration.read(file));
        assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
        assertThat(e.getMessage())
                .startsWith("--encryption-config " + file + ": ")
                .contains(message);
        return e;
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }
}
