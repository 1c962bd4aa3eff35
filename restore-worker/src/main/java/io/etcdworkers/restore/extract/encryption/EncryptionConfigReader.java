package io.etcdworkers.restore.extract.encryption;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.contract.WorkerFlags;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads an EncryptionConfiguration file as kube-apiserver's {@code --encryption-provider-config}
 * takes it ({@code apiserver.config.k8s.io/v1}), in YAML or JSON, and checks what the worker uses
 * as kube-apiserver's validation does: one provider per list element, every key named, its secret
 * base64 (line breaks ignored, as Go's decoder does) of a length the provider takes. Fields the
 * worker does not use are ignored, as kube-apiserver's decoder ignores unknown ones.
 *
 * <p>No message ever holds a secret, or a parser's excerpt of the file (which could): a bad file is
 * named by its field path, or by line and column.
 */
final class EncryptionConfigReader {
    private static final Logger LOG = LoggerFactory.getLogger(EncryptionConfigReader.class);
    static final String API_VERSION = "apiserver.config.k8s.io/v1";
    static final String KIND = "EncryptionConfiguration";
    private static final List<String> PROVIDERS = List.of("aescbc", "aesgcm", "secretbox", "kms", "identity");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new YAMLMapper();

    private final Path file;
    private final List<DataKey> keys = new ArrayList<>();
    private final List<KmsPlugin> plugins = new ArrayList<>();

    private EncryptionConfigReader(Path file) {
        this.file = file;
    }

    static EncryptionConfiguration read(Path file) {
        EncryptionConfigReader reader = new EncryptionConfigReader(file);
        reader.configuration(reader.parse());
        reader.warnOnNamesWithTwoSecrets();
        return new EncryptionConfiguration(file, reader.keys, reader.plugins);
    }

    private JsonNode parse() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw usage("no such file");
        } catch (IOException e) {
            throw usage("cannot read it: " + e.getClass().getSimpleName());
        }
        String text = new String(bytes, StandardCharsets.UTF_8).strip();
        if (text.isEmpty()) {
            throw usage("the file is empty");
        }
        boolean json = text.startsWith("{");
        try {
            JsonNode root = (json ? JSON : YAML).readTree(bytes);
            if (root == null || !root.isObject()) {
                throw usage("not an EncryptionConfiguration: expected an object with apiVersion " + API_VERSION);
            }
            return root;
        } catch (JsonProcessingException e) {
            // the parser's own message can quote the file; only where it failed is safe to say
            JsonLocation at = e.getLocation();
            throw usage("not valid " + (json ? "JSON" : "YAML")
                    + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
        } catch (IOException e) {
            throw usage("cannot read it: " + e.getClass().getSimpleName());
        }
    }

    private void configuration(JsonNode root) {
        String apiVersion = root.path("apiVersion").asText("");
        String kind = root.path("kind").asText("");
        if (!API_VERSION.equals(apiVersion) || !KIND.equals(kind)) {
            throw usage("not an EncryptionConfiguration: expected apiVersion " + API_VERSION + " and kind " + KIND
                    + ", got apiVersion \"" + apiVersion + "\" and kind \"" + kind + "\"");
        }
        JsonNode resources = nonEmptyArray(root.get("resources"), "resources");
        for (int i = 0; i < resources.size(); i++) {
            String at = "resources[" + i + "]";
            JsonNode entry = resources.get(i);
            nonEmptyArray(entry.get("resources"), at + ".resources");
            JsonNode providers = nonEmptyArray(entry.get("providers"), at + ".providers");
            for (int j = 0; j < providers.size(); j++) {
                provider(providers.get(j), at + ".providers[" + j + "]");
            }
        }
    }

    private void provider(JsonNode element, String at) {
        List<String> given = PROVIDERS.stream()
                .filter(p -> element.has(p) && !element.get(p).isNull())
                .toList();
        if (given.size() != 1) {
            throw usage(at + ": "
                    + (given.isEmpty()
                            ? "provider does not contain any of the expected providers: " + String.join(", ", PROVIDERS)
                            : "more than one provider specified in a single element (" + String.join(", ", given)
                                    + "), should split into different list elements"));
        }
        String name = given.get(0);
        JsonNode spec = element.get(name);
        switch (name) {
            case "identity" -> {}
            case "kms" -> kms(spec, at + ".kms");
            default -> keys(KeyProvider.named(name).orElseThrow(), spec, at + "." + name);
        }
    }

    private void keys(KeyProvider provider, JsonNode spec, String at) {
        JsonNode list = nonEmptyArray(spec.get("keys"), at + ".keys");
        for (int k = 0; k < list.size(); k++) {
            String where = at + ".keys[" + k + "]";
            String name = string(list.get(k), "name", where);
            String encoded = string(list.get(k), "secret", where);
            byte[] secret;
            try {
                secret = Base64.getDecoder().decode(encoded.replace("\r", "").replace("\n", ""));
            } catch (IllegalArgumentException e) {
                throw usage(where + ".secret (key \"" + name + "\"): secrets must be base64 encoded");
            }
            if (!provider.keySizes().contains(secret.length)) {
                throw usage(where + ".secret (key \"" + name + "\"): secret is not of the expected length, got "
                        + secret.length + " bytes, expected one of " + provider.keySizes());
            }
            keys.add(new DataKey(provider, name, secret, where));
        }
    }

    private void kms(JsonNode spec, String at) {
        String name = string(spec, "name", at);
        String apiVersion = spec.hasNonNull("apiVersion") ? string(spec, "apiVersion", at) : "v1";
        if (!apiVersion.equals("v1") && !apiVersion.equals("v2")) {
            throw usage(at + ".apiVersion: unsupported apiVersion " + apiVersion
                    + " for KMS provider, only v1 and v2 are supported");
        }
        String endpoint = spec.hasNonNull("endpoint") ? string(spec, "endpoint", at) : "";
        plugins.add(new KmsPlugin(apiVersion, name, endpoint, at));
    }

    /**
     * One name with two secrets (in two resources entries) is valid, but a value then opens with
     * either: AES-GCM and secretbox tell them apart by their tags; AES-CBC only by its padding.
     */
    private void warnOnNamesWithTwoSecrets() {
        Map<String, DataKey> first = new HashMap<>();
        for (DataKey key : keys) {
            DataKey earlier = first.putIfAbsent(key.provider().configName() + ":" + key.name(), key);
            if (earlier != null && !earlier.sameAs(key)) {
                LOG.warn(
                        "two secrets under one key name in the encryption config: {} and {}; a value with that name "
                                + "is tried with each, in this order",
                        earlier,
                        key);
            }
        }
    }

    private JsonNode nonEmptyArray(JsonNode node, String at) {
        if (node == null || !node.isArray() || node.isEmpty()) {
            throw usage(at + ": at least one is required");
        }
        return node;
    }

    private String string(JsonNode object, String field, String at) {
        JsonNode value = object == null ? null : object.get(field);
        if (value == null
                || value.isNull()
                || value.isTextual() && value.asText().isEmpty()) {
            throw usage(at + "." + field + ": " + field + " is a mandatory field");
        }
        if (!value.isTextual()) {
            throw usage(at + "." + field + ": must be a string");
        }
        return value.asText();
    }

    private WorkerException usage(String problem) {
        return new WorkerException(ErrorCode.USAGE, WorkerFlags.ENCRYPTION_CONFIG + " " + file + ": " + problem);
    }
}
