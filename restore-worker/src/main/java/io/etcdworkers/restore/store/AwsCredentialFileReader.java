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
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Reads etcd-backup-restore's S3 credentials, as etcd-druid mounts them from the backup Secret:
 * a JSON file ({@code AWS_APPLICATION_CREDENTIALS_JSON}), or a directory
 * ({@code AWS_APPLICATION_CREDENTIALS}) holding either a {@code *.json} file or one file per key.
 *
 * <p>Differences from theirs, all lenient: values of per-key files are stripped of surrounding
 * whitespace (a trailing newline from {@code echo} broke theirs), JSON booleans may also be
 * strings, and the JSON form is validated like the directory form. Errors are
 * {@link ErrorCode#USAGE} and name the file and key, never a value.
 */
public final class AwsCredentialFileReader {
    private static final ObjectMapper JSON = new ObjectMapper();
    // Go's strconv.ParseBool, which theirs uses for the per-key files.
    private static final Set<String> TRUE = Set.of("1", "t", "T", "TRUE", "true", "True");
    private static final Set<String> FALSE = Set.of("0", "f", "F", "FALSE", "false", "False");

    private AwsCredentialFileReader() {
    }

    /** Reads the JSON file named by {@code AWS_APPLICATION_CREDENTIALS_JSON}. */
    public static AwsCredentialFile readJson(Path file) {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            // Jackson's message may quote the content, which holds secrets: keep only the place.
            String line = e.getLocation() == null ? "?" : String.valueOf(e.getLocation().getLineNr());
            throw usage(file, "is not valid JSON (line " + line + ")");
        } catch (IOException e) {
            throw usage(file, "cannot be read: " + e.getClass().getSimpleName(), e);
        }
        if (root == null || !root.isObject()) {
            throw usage(file, "must hold a JSON object");
        }
        return validate(new AwsCredentialFile(file,
                text(root, "accessKeyID", file), text(root, "secretAccessKey", file),
                text(root, "region", file), text(root, "endpoint", file),
                bool(root, "s3ForcePathStyle", file), bool(root, "insecureSkipVerify", file),
                text(root, "trustedCaCert", file), text(root, "sseCustomerKey", file),
                text(root, "sseCustomerAlgorithm", file), text(root, "roleARN", file),
                text(root, "tokenPath", file).map(Path::of),
                text(root, "requestChecksumCalculation", file),
                text(root, "responseChecksumValidation", file)));
    }

    /**
     * Reads the directory named by {@code AWS_APPLICATION_CREDENTIALS}: its {@code *.json} file
     * when there is one (the first by name), else one file per key.
     */
    public static AwsCredentialFile readDirectory(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw usage(dir, "is not a directory");
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
        Path token = dir.resolve("token");
        return validate(new AwsCredentialFile(dir,
                keyFile(dir, "accessKeyID"), keyFile(dir, "secretAccessKey"),
                keyFile(dir, "region"), keyFile(dir, "endpoint"),
                keyFile(dir, "s3ForcePathStyle").map(v -> parseBool(v, dir, "s3ForcePathStyle")),
                keyFile(dir, "insecureSkipVerify").map(v -> parseBool(v, dir, "insecureSkipVerify")),
                keyFile(dir, "trustedCaCert"), keyFile(dir, "sseCustomerKey"),
                keyFile(dir, "sseCustomerAlgorithm"), keyFile(dir, "roleARN"),
                Files.isRegularFile(token) ? Optional.of(token) : Optional.empty(),
                keyFile(dir, "requestChecksumCalculation"),
                keyFile(dir, "responseChecksumValidation")));
    }

    private static AwsCredentialFile validate(AwsCredentialFile f) {
        boolean staticKeys = f.accessKeyId().isPresent() && f.secretAccessKey().isPresent();
        boolean webIdentity = f.roleArn().isPresent() && f.tokenPath().isPresent();
        if (!staticKeys && !webIdentity) {
            throw usage(f.source(), "must set either accessKeyID and secretAccessKey,"
                    + " or roleARN and token");
        }
        if (f.sseCustomerKey().isPresent() != f.sseCustomerAlgorithm().isPresent()) {
            throw usage(f.source(), "must set both sseCustomerKey and sseCustomerAlgorithm, or neither");
        }
        checksumMode(f.requestChecksumCalculation(), f.source(), "requestChecksumCalculation");
        checksumMode(f.responseChecksumValidation(), f.source(), "responseChecksumValidation");
        return f;
    }

    private static void checksumMode(Optional<String> value, Path source, String key) {
        value.map(v -> v.toLowerCase(Locale.ROOT))
                .filter(v -> !v.equals("when_supported") && !v.equals("when_required"))
                .ifPresent(v -> {
                    throw usage(source, key + " must be when_supported or when_required");
                });
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
            throw usage(file, "key " + key + " must be a string");
        }
        String value = node.asText().strip();
        return value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    private static Optional<Boolean> bool(JsonNode root, String key, Path file) {
        JsonNode node = root.get(key);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (node.isBoolean()) {
            return Optional.of(node.booleanValue());
        }
        if (node.isTextual()) {
            return Optional.of(parseBool(node.asText().strip(), file, key));
        }
        throw usage(file, "key " + key + " must be true or false");
    }

    private static boolean parseBool(String value, Path source, String key) {
        if (TRUE.contains(value)) {
            return true;
        }
        if (FALSE.contains(value)) {
            return false;
        }
        throw usage(source, "key " + key + " must be true or false");
    }

    private static WorkerException usage(Path source, String what) {
        return new WorkerException(ErrorCode.USAGE, "S3 credentials " + source + " " + what);
    }

    private static WorkerException usage(Path source, String what, Throwable cause) {
        return new WorkerException(ErrorCode.USAGE, "S3 credentials " + source + " " + what, cause);
    }
}
