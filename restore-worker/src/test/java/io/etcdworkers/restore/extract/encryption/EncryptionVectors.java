package io.etcdworkers.restore.extract.encryption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.etcdworkers.testsupport.Fixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code testdata/k8s-encryption}: values kube-apiserver's way encrypted by openssl (aescbc),
 * Python's cryptography (aesgcm) and PyNaCl (secretbox), and the EncryptionConfiguration with their
 * keys. Written once by its {@code make.py}; no code of the worker took part.
 */
public final class EncryptionVectors {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One stored value.
     *
     * @param provider {@code aescbc}, {@code aesgcm}, {@code secretbox} or {@code kms}
     * @param keyName the key's (a KMS provider's) name in the prefix
     * @param etcdKey the key it is stored under (AES-GCM authenticates it)
     * @param plaintext what kube-apiserver encrypted; empty for KMS stand-ins
     * @param stored the value as stored in etcd
     */
    public record Vector(String provider, String keyName, String etcdKey, byte[] plaintext, byte[] stored) {
        public byte[] etcdKeyBytes() {
            return etcdKey.getBytes(StandardCharsets.UTF_8);
        }

        public boolean kms() {
            return provider.equals("kms");
        }
    }

    private EncryptionVectors() {}

    public static Path dir() {
        return Fixtures.root(Fixtures.K8S_ENCRYPTION);
    }

    public static Path yamlConfig() {
        return dir().resolve("encryption-configuration.yaml");
    }

    public static Path jsonConfig() {
        return dir().resolve("encryption-configuration.json");
    }

    public static List<Vector> all() {
        List<Vector> out = new ArrayList<>();
        try {
            for (JsonNode v :
                    JSON.readTree(dir().resolve("vectors.json").toFile()).get("vectors")) {
                out.add(new Vector(
                        v.get("provider").asText(),
                        v.get("keyName").asText(),
                        v.get("etcdKey").asText(),
                        Base64.getDecoder().decode(v.path("plaintext").asText("")),
                        Base64.getDecoder().decode(v.get("stored").asText())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Vectors the configuration's keys decrypt (every provider but KMS). */
    public static List<Vector> decryptable() {
        return all().stream().filter(v -> !v.kms()).toList();
    }

    /** The configuration's secrets (base64, as written) by key name, to build other configurations and look for leaks. */
    public static Map<String, String> secrets() {
        Map<String, String> out = new LinkedHashMap<>();
        try {
            for (JsonNode entry :
                    new YAMLMapper().readTree(yamlConfig().toFile()).get("resources")) {
                for (JsonNode provider : entry.get("providers")) {
                    provider.fields()
                            .forEachRemaining(f -> f.getValue()
                                    .path("keys")
                                    .forEach(k -> out.put(
                                            k.get("name").asText(),
                                            k.get("secret").asText())));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /**
     * Every form of every secret a leak could take: base64 as written, hex, and the raw bytes
     * read as ISO-8859-1 (what a byte-for-byte copy into text would look like).
     */
    public static List<String> secretForms() {
        List<String> forms = new ArrayList<>();
        for (String b64 : secrets().values()) {
            byte[] raw = Base64.getDecoder().decode(b64);
            forms.add(b64);
            forms.add(HexFormat.of().formatHex(raw));
            forms.add(HexFormat.of().withUpperCase().formatHex(raw));
            forms.add(new String(raw, StandardCharsets.ISO_8859_1));
        }
        return forms;
    }
}
