package io.etcdworkers.restore.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads etcd-backup-restore's ABS credentials as etcd-druid mounts them from the backup Secret
 * and {@code etcdbrctl} (v0.41) reads them: a JSON file ({@code AZURE_APPLICATION_CREDENTIALS_JSON})
 * or a directory ({@code AZURE_APPLICATION_CREDENTIALS}) holding either a {@code *.json} file,
 * which wins, or one file per key: {@code storageAccount}, {@code storageKey}, optional
 * {@code domain}. JSON keys are the same; {@code bucketName} is read by neither (the container
 * is the flag or {@code STORAGE_CONTAINER}).
 *
 * <p>Differences from theirs, all lenient or earlier: values are stripped of surrounding
 * whitespace (a trailing newline in a per-key file broke theirs), the JSON form must also name
 * both account and key, and a key that is not base64 is refused here rather than at the first
 * request. Errors are {@link ErrorCode#USAGE} and name the file and key, never a value.
 */
public final class AzureCredentialFileReader {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LEGACY_EMULATOR_KEY = "emulatorEnabled";

    private AzureCredentialFileReader() {
    }

    /** Reads the JSON file named by {@code AZURE_APPLICATION_CREDENTIALS_JSON} (or found in the directory). */
    public static AzureCredentials readJson(Path file) {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            // Jackson's message may quote the content, which holds the key: keep only the place.
            String line = e.getLocation() == null ? "?" : String.valueOf(e.getLocation().getLineNr());
            throw usage(file, "is not valid JSON (line " + line + ")", null);
        } catch (IOException e) {
            throw usage(file, "cannot be read: " + e.getClass().getSimpleName(), e);
        }
        if (root == null || !root.isObject()) {
            throw usage(file, "must hold a JSON object", null);
        }
        List<String> ignored = root.has(LEGACY_EMULATOR_KEY) ? List.of(LEGACY_EMULATOR_KEY) : List.of();
        return validate(file, text(root, "storageAccount", file), text(root, "storageKey", file),
                text(root, "domain", file), ignored);
    }

    /**
     * Reads the directory named by {@code AZURE_APPLICATION_CREDENTIALS}: its {@code *.json} file
     * when there is one (the first by name, as Go's {@code os.ReadDir} sorts), else one file per key.
     */
    public static AzureCredentials readDirectory(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw usage(dir, "is not a directory", null);
        }
        Optional<Path> json;
        try (Stream<Path> files = Files.list(dir)) {
            json = files.filter(p -> p.getFileName().toString().endsWith(".json"))
                    .filter(Files::isRegularFile).sorted().findFirst();
        } catch (IOException e) {
            throw usage(dir, "cannot be listed: " + e.getClass().getSimpleName(), e);
        }
        if (json.isPresent()) {
            return readJson(json.get());
        }
        List<String> ignored = Files.exists(dir.resolve(LEGACY_EMULATOR_KEY)) ? List.of(LEGACY_EMULATOR_KEY) : List.of();
        return validate(dir, keyFile(dir, "storageAccount"), keyFile(dir, "storageKey"), keyFile(dir, "domain"),
                ignored);
    }

    private static AzureCredentials validate(Path source, Optional<String> account, Optional<String> key,
            Optional<String> domain, List<String> ignored) {
        List<String> missing = new ArrayList<>();
        account.ifPresentOrElse(a -> { }, () -> missing.add("storageAccount"));
        key.ifPresentOrElse(k -> { }, () -> missing.add("storageKey"));
        if (!missing.isEmpty()) {
            throw usage(source, "must set storageAccount and storageKey; missing: " + String.join(", ", missing), null);
        }
        try {
            Base64.getDecoder().decode(key.get());
        } catch (IllegalArgumentException e) {
            // Not the decoder's message: it may quote the offending character.
            throw usage(source, "key storageKey is not base64 (an Azure storage account key is)", null);
        }
        return new AzureCredentials(source, account.get(), key.get(), domain, ignored);
    }

    private static Optional<String> keyFile(Path dir, String key) {
        Path file = dir.resolve(key);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            String value = Files.readString(file, StandardCharsets.UTF_8).strip();
            return value.isEmpty() ? Optional.empty() : Optional.of(value);
        } catch (IOException e) {
            throw usage(file, "cannot be read: " + e.getClass().getSimpleName(), e);
        }
    }

    private static Optional<String> text(JsonNode root, String key, Path file) {
        JsonNode node = root.get(key);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isTextual()) {
            throw usage(file, "key " + key + " must be a string", null);
        }
        String value = node.asText().strip();
        return value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    private static WorkerException usage(Path source, String what, Throwable cause) {
        return new WorkerException(ErrorCode.USAGE, "ABS credentials " + source + " " + what, cause);
    }
}
