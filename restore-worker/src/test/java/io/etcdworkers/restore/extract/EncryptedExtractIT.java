package io.etcdworkers.restore.extract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.etcdworkers.restore.extract.encryption.EncryptionVectors;
import io.etcdworkers.restore.extract.encryption.EncryptionVectors.Vector;
import io.etcdworkers.testsupport.GeneratedBucket;
import io.etcdworkers.testsupport.JarRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bucket whose Secrets and ConfigMaps were encrypted at rest by other implementations (openssl,
 * Python's cryptography, PyNaCl: {@code testdata/k8s-encryption}), extracted by the shaded jar as
 * the Job runs it (its own JVM, DEBUG logging): with the cluster's EncryptionConfiguration every
 * aescbc, aesgcm and secretbox value is written as its plaintext and KMS values as stored with a
 * warning and a count; with a wrong secret or a missing key it is exit 2 naming them, and nothing
 * is placed; without a configuration everything is written as stored. No form of any secret ever
 * shows in stdout, stderr, the result file or the files written.
 */
@Timeout(600)
class EncryptedExtractIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PLAIN_SECRET = "/registry/secrets/team-a/plain";
    private static final byte[] PLAIN_VALUE =
            "k8s\0\n\f\n\u0002v1\u0012\u0006Secret".getBytes(StandardCharsets.ISO_8859_1);

    @TempDir
    static Path shared;

    @TempDir
    Path dir;

    private static Path bucket;
    private static final List<Vector> VECTORS = EncryptionVectors.all();

    @BeforeAll
    static void encryptedBucket() {
        GeneratedBucket generated =
                GeneratedBucket.create(shared.resolve("bucket"), GeneratedBucket.Compression.GZIP, 7);
        generated.put(PLAIN_SECRET, PLAIN_VALUE);
        for (int i = 0; i < VECTORS.size(); i++) {
            generated.put(VECTORS.get(i).etcdKey(), VECTORS.get(i).stored());
            if (i % 10 == 9 || i == VECTORS.size() - 1) {
                generated.cutDelta();
            }
        }
        bucket = generated.root();
    }

    @Test
    void withTheConfigurationEveryKeyedValueIsItsPlaintextAndKmsValuesAreAsStored() throws IOException {
        Path output = dir.resolve("out");

        Run run = extract(output, "--encryption-config=" + EncryptionVectors.yamlConfig());

        assertThat(run.jar.exitCode()).as(run.jar.stderr()).isZero();
        for (Vector v : VECTORS) {
            JsonNode meta = meta(output, v.etcdKey());
            byte[] written =
                    Files.readAllBytes(output.resolve(meta.get("valueFile").asText()));
            JsonNode encryption = meta.get("encryption");
            assertThat(encryption.get("provider").asText()).isEqualTo(v.provider());
            assertThat(encryption.get("keyName").asText()).isEqualTo(v.keyName());
            assertThat(encryption.get("storedBytes").asLong()).isEqualTo(v.stored().length);
            if (v.kms()) {
                assertThat(written).as(v.etcdKey()).isEqualTo(v.stored());
                assertThat(encryption.get("decrypted").asBoolean()).isFalse();
                assertThat(meta.get("encoding").asText()).isEqualTo("encrypted");
            } else {
                assertThat(written).as(v.etcdKey()).isEqualTo(v.plaintext());
                assertThat(encryption.get("decrypted").asBoolean()).isTrue();
                assertThat(meta.get("encoding").asText())
                        .isEqualTo(v.plaintext().length == 0 ? "bytes" : "kubernetes-protobuf");
                assertThat(meta.get("valueBytes").asLong()).isEqualTo(v.plaintext().length);
            }
        }
        JsonNode plain = meta(output, PLAIN_SECRET);
        assertThat(plain.has("encryption")).isFalse();
        assertThat(Files.readAllBytes(output.resolve(plain.get("valueFile").asText())))
                .isEqualTo(PLAIN_VALUE);

        JsonNode encryption = run.result.get("encryption");
        assertThat(encryption.get("config").asText())
                .isEqualTo(EncryptionVectors.yamlConfig().toString());
        assertThat(encryption.get("decrypted").asLong()).isEqualTo(26);
        assertThat(encryption.get("leftEncrypted").asLong()).isEqualTo(4);
        assertThat(run.result.get("outcome").asText()).isEqualTo("succeeded");
        assertThat(encryption.get("decryptedBy"))
                .isEqualTo(JSON.readTree("{\"aescbc\": 11, \"aesgcm\": 10, \"secretbox\": 5}"));
        assertThat(encryption.get("leftEncryptedBy")).isEqualTo(JSON.readTree("{\"kms\": 4}"));
        assertThat(encryption.get("keyNames"))
                .anySatisfy(k -> assertThat(k)
                        .isEqualTo(JSON.readTree(
                                "{\"provider\": \"kms\", \"version\": \"v2\", \"name\": \"gardener-kms\", \"decrypted\": 0, "
                                        + "\"leftEncrypted\": 2, \"endpoint\": \"unix:///var/run/kms/kms.sock\"}")));
        assertThat(run.result.get("kinds").get("Secret").asLong())
                .as("decrypted Secrets are read as Secrets")
                .isGreaterThanOrEqualTo(13);
        assertThat(run.jar.stderr())
                .contains(
                        "encrypted values written as stored: kms v2 provider \"gardener-kms\": 2 "
                                + "values written as stored",
                        "unix:///var/run/kms/kms.sock",
                        "kms v2 provider \"other-kms\": 1 value written as stored");
        run.assertNoSecret();
    }

    @Test
    void aWrongSecretOrAMissingKeyIsExitTwoNamingThemAndNothingIsPlaced() throws IOException {
        ObjectNode config = (ObjectNode)
                new YAMLMapper().readTree(EncryptionVectors.yamlConfig().toFile());
        ArrayNode secretsProviders = (ArrayNode) config.get("resources").get(0).get("providers");
        // key-2025 dropped from the aescbc keys, gcm-256 given another secret
        ((ArrayNode) secretsProviders.get(0).get("aescbc").get("keys")).remove(1);
        ((ObjectNode) secretsProviders.get(2).get("aesgcm").get("keys").get(0))
                .put("secret", Base64.getEncoder().encodeToString(new byte[32]));
        Path wrong = dir.resolve("wrong.json");
        JSON.writeValue(wrong.toFile(), config);
        Path output = dir.resolve("out");

        Run run = extract(output, "--encryption-config=" + wrong);

        assertThat(run.jar.exitCode()).as(run.jar.stderr()).isEqualTo(2);
        assertThat(run.result.get("errorCode").asText()).isEqualTo("USAGE");
        assertThat(run.result.get("error").asText())
                .isEqualTo("--encryption-config " + wrong + " does not decrypt 7 "
                        + "values: aescbc key \"key-2025\": 3 values, first /registry/secrets/team-a/key-2025-0: the "
                        + "configuration has no aescbc key of that name; aesgcm key \"gcm-256\": 4 values, first "
                        + "/registry/secrets/team-a/gcm-256-0: the configuration's key of that name does not decrypt it "
                        + "(resources[0].providers[2].aesgcm.keys[0]: message authentication failed). Nothing was written "
                        + "to " + output
                        + ". Give the EncryptionConfiguration the API server had when the backup was taken, "
                        + "with every key it could still read (an older key stays listed after a rotation until everything "
                        + "is rewritten)");
        assertThat(output).doesNotExist();
        assertThat(dir.resolve("out.part")).doesNotExist();
        run.assertNoSecret();
    }

    @Test
    void withoutAConfigurationEncryptedValuesAreWrittenAsStoredWithAWarning() throws IOException {
        Path output = dir.resolve("out");

        Run run = extract(output);

        assertThat(run.jar.exitCode()).as(run.jar.stderr()).isZero();
        for (Vector v : VECTORS) {
            JsonNode meta = meta(output, v.etcdKey());
            assertThat(Files.readAllBytes(output.resolve(meta.get("valueFile").asText())))
                    .isEqualTo(v.stored());
            assertThat(meta.get("encoding").asText()).isEqualTo("encrypted");
        }
        JsonNode encryption = run.result.get("encryption");
        assertThat(encryption.has("config")).isFalse();
        assertThat(encryption.get("decrypted").asLong()).isZero();
        assertThat(encryption.get("leftEncrypted").asLong()).isEqualTo(VECTORS.size());
        assertThat(run.result.get("encodings").get("encrypted").asLong()).isEqualTo(VECTORS.size());
        assertThat(run.jar.stderr())
                .contains("aescbc key \"key-2026\": 5 values written as stored (first "
                        + "/registry/secrets/team-a/key-2026-0): give --encryption-config");
    }

    @Test
    void aConfigurationThatCannotBeReadOrADataDirIsExitTwoBeforeAnythingIsDownloaded() throws IOException {
        Run missing = extract(dir.resolve("out"), "--encryption-config=" + dir.resolve("absent.yaml"));
        assertThat(missing.jar.exitCode()).isEqualTo(2);
        assertThat(missing.result.get("error").asText())
                .isEqualTo("--encryption-config " + dir.resolve("absent.yaml") + ": no such file");
        assertThat(missing.jar.stderr()).doesNotContain("fetchBase", "downloading");

        Run dataDir = extract(
                dir.resolve("out.etcd"),
                "--encryption-config=" + EncryptionVectors.yamlConfig(),
                "--output-format=etcd");
        assertThat(dataDir.jar.exitCode()).isEqualTo(2);
        assertThat(dataDir.result.get("error").asText()).startsWith("--encryption-config decrypts values into files");
        assertThat(dir.resolve("out")).doesNotExist();
        assertThat(dir.resolve("out.etcd")).doesNotExist();
        dataDir.assertNoSecret();
    }

    private record Run(JarRun jar, JsonNode result, String resultFile, Path work, Path output) {
        /**
         * No form of any of the configuration's secrets on stdout, stderr, in the result, or in any
         * file the run left (its working and scratch dirs, the output).
         */
        void assertNoSecret() throws IOException {
            List<String> texts = new ArrayList<>(List.of(jar.stdout(), jar.stderr(), resultFile));
            for (Path root : List.of(work, output)) {
                if (!Files.exists(root)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(root)) {
                    for (Path f : files.filter(Files::isRegularFile).toList()) {
                        texts.add(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
                    }
                }
            }
            for (String form : EncryptionVectors.secretForms()) {
                for (String text : texts) {
                    assertThat(text.contains(form))
                            .as("a secret's form in the output")
                            .isFalse();
                }
            }
        }
    }

    private Run extract(Path output, String... extra) throws IOException {
        Path work = Files.createTempDirectory(dir, "work");
        Path resultFile = work.resolve("result.json");
        List<String> args = new ArrayList<>(List.of(
                "extract",
                "--store-container=" + bucket,
                "--prefix=/registry/",
                "--output=" + output,
                "--scratch-dir=" + work.resolve("scratch"),
                "--result-file=" + resultFile));
        args.addAll(List.of(extra));
        Map<String, String> env =
                new HashMap<>(Map.of("PATH", System.getenv("PATH"), "LOG_LEVEL", "DEBUG", "HOME", work.toString()));
        JarRun run = JarRun.run(JarRun.jar("worker.jar"), env, work, List.of(), args.toArray(String[]::new));
        String result = Files.readString(resultFile);
        return new Run(run, JSON.readTree(result), result, work, output);
    }

    private static JsonNode meta(Path output, String etcdKey) throws IOException {
        for (String line : Files.readAllLines(output.resolve("index.jsonl"))) {
            JsonNode entry = JSON.readTree(line);
            if (entry.get("key").asText().equals(etcdKey)) {
                return JSON.readTree(output.resolve(entry.get("path").asText() + ".meta.json")
                        .toFile());
            }
        }
        throw new AssertionError("not extracted: " + etcdKey);
    }
}
