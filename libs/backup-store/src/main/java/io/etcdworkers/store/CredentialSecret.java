package io.etcdworkers.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * One provider's credentials Secret in either form etcdbrctl reads: a JSON file (named by
 * {@code <PROVIDER>_APPLICATION_CREDENTIALS_JSON}) or the directory etcd-druid mounts the Secret
 * as ({@code <PROVIDER>_APPLICATION_CREDENTIALS}), whose first {@code *.json} file by name wins
 * (Go's {@code os.ReadDir} sorts) and which otherwise holds one file per key. The S3, ABS, OSS and
 * OCS readers take their keys from here; only which keys they need differs.
 *
 * <p>Differences from etcdbrctl, all lenient: values are stripped of surrounding whitespace (a
 * trailing newline in a per-key file broke etcdbrctl), an empty value counts as absent, and a JSON
 * boolean may also be a string. Every error is {@link ErrorCode#USAGE} and names the provider,
 * the file and the key, never a value: Jackson's own messages may quote the content and are
 * dropped.
 */
public final class CredentialSecret {
    private static final ObjectMapper JSON = new ObjectMapper();
    // Go's strconv.ParseBool, which etcdbrctl uses for the per-key files
    private static final Set<String> TRUE = Set.of("1", "t", "T", "TRUE", "true", "True");
    private static final Set<String> FALSE = Set.of("0", "f", "F", "FALSE", "false", "False");

    private final String provider;
    private final Path source;
    private final JsonNode json;

    private CredentialSecret(String provider, Path source, JsonNode json) {
        this.provider = provider;
        this.source = source;
        this.json = json;
    }

    /**
     * The Secret the environment points at: the JSON file named by {@code jsonVariable}, else the
     * directory named by {@code dirVariable}; none when neither is set.
     */
    public static Optional<CredentialSecret> fromEnv(
            String provider, Map<String, String> env, String jsonVariable, String dirVariable) {
        Optional<String> file = value(env, jsonVariable);
        if (file.isPresent()) {
            return Optional.of(readJson(provider, Path.of(file.get())));
        }
        return value(env, dirVariable).map(dir -> readDirectory(provider, Path.of(dir)));
    }

    /** A JSON file holding one object. */
    public static CredentialSecret readJson(String provider, Path file) {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            String line = e.getLocation() == null
                    ? "?"
                    : String.valueOf(e.getLocation().getLineNr());
            throw invalid(provider, file, "is not valid JSON (line " + line + ")", null);
        } catch (IOException e) {
            throw invalid(provider, file, "cannot be read: " + e.getClass().getSimpleName(), e);
        }
        if (root == null || !root.isObject()) {
            throw invalid(provider, file, "must hold a JSON object", null);
        }
        return new CredentialSecret(provider, file, root);
    }

    /** A mounted Secret: its first {@code *.json} file by name if it has one, else one file per key. */
    public static CredentialSecret readDirectory(String provider, Path dir) {
        if (!Files.isDirectory(dir)) {
            throw invalid(provider, dir, "is not a directory", null);
        }
        Optional<Path> jsonFile;
        try (Stream<Path> files = Files.list(dir)) {
            jsonFile = files.filter(p -> p.getFileName().toString().endsWith(".json"))
                    .filter(Files::isRegularFile)
                    .sorted()
                    .findFirst();
        } catch (IOException e) {
            throw invalid(provider, dir, "cannot be listed: " + e.getClass().getSimpleName(), e);
        }
        return jsonFile.map(f -> readJson(provider, f)).orElseGet(() -> new CredentialSecret(provider, dir, null));
    }

    /** The JSON file or the directory of per-key files read, for messages. */
    public Path source() {
        return source;
    }

    /** Whether this is the one-file-per-key form. */
    public boolean isDirectory() {
        return json == null;
    }

    /** Whether the Secret names {@code key} at all, whatever its value. */
    public boolean has(String key) {
        return isDirectory() ? Files.exists(source.resolve(key)) : json.has(key);
    }

    /** A string value; in the JSON form it must be a JSON string. */
    public Optional<String> text(String key) {
        if (isDirectory()) {
            return keyFile(key);
        }
        JsonNode node = json.get(key);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isTextual()) {
            throw invalid("key " + key + " must be a string");
        }
        return nonEmpty(node.asText());
    }

    /** A boolean value, as Go's {@code strconv.ParseBool} reads it; in the JSON form also a JSON boolean. */
    public Optional<Boolean> bool(String key) {
        if (isDirectory()) {
            return keyFile(key).map(v -> parseBool(v, key));
        }
        JsonNode node = json.get(key);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (node.isBoolean()) {
            return Optional.of(node.booleanValue());
        }
        if (node.isTextual()) {
            return nonEmpty(node.asText()).map(v -> parseBool(v, key));
        }
        throw invalid("key " + key + " must be true or false");
    }

    /** The per-key file itself, when this is the directory form and it exists (a token file, say). */
    public Optional<Path> file(String key) {
        Path file = source.resolve(key);
        return isDirectory() && Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
    }

    /** A usage error that names the provider and this Secret; {@code what} must hold no value. */
    public WorkerException invalid(String what) {
        return invalid(provider, source, what, null);
    }

    private Optional<String> keyFile(String key) {
        Path file = source.resolve(key);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return nonEmpty(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw invalid(provider, file, "cannot be read: " + e.getClass().getSimpleName(), e);
        }
    }

    private boolean parseBool(String value, String key) {
        return goBool(value).orElseThrow(() -> invalid("key " + key + " must be true or false"));
    }

    /** {@code value} as Go's {@code strconv.ParseBool} reads it, or none when it is not a boolean there. */
    public static Optional<Boolean> goBool(String value) {
        return TRUE.contains(value) ? Optional.of(true) : FALSE.contains(value) ? Optional.of(false) : Optional.empty();
    }

    private static Optional<String> nonEmpty(String value) {
        String stripped = value.strip();
        return stripped.isEmpty() ? Optional.empty() : Optional.of(stripped);
    }

    private static Optional<String> value(Map<String, String> env, String name) {
        return Optional.ofNullable(env.get(name)).flatMap(CredentialSecret::nonEmpty);
    }

    private static WorkerException invalid(String provider, Path source, String what, Throwable cause) {
        Objects.requireNonNull(provider, "provider");
        return new WorkerException(ErrorCode.USAGE, provider + " credentials " + source + " " + what, cause);
    }

    @Override
    public String toString() {
        return provider + " credentials " + source;
    }
}
