package io.etcdworkers.store.gcs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.gcs.GcsCredentialFile.Type;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Checks the file {@code GOOGLE_APPLICATION_CREDENTIALS} names as {@code etcdbrctl} v0.41 does
 * before it hands the file to Google's SDK ({@code validateGCSCredential} in
 * {@code gcs_snapstore.go}), so that a Secret etcdbrctl refuses is refused here too, and one it
 * takes is taken:
 * <ul>
 *   <li>{@code service_account}: {@code project_id} is a project id, and the file has no keys
 *       beyond a service account key's;</li>
 *   <li>{@code external_account} (workload identity, as Gardener mounts it): the file
 *       {@code projectID} beside it holds a project id; the keys are exactly the required ones
 *       (plus the optional {@code service_account_impersonation_url}); the subject token is a JWT
 *       read as text from the file {@code token} beside it; the token URL is Google's STS; an
 *       impersonation URL is Google's IAM credentials endpoint.</li>
 * </ul>
 * These checks keep a credentials file from making the SDK run a program, read another file, or
 * send a token elsewhere. Any other {@code type} is refused. One leniency: the {@code projectID}
 * file may end in a newline (etcdbrctl's check fails on one).
 *
 * <p>Errors are {@link ErrorCode#USAGE} and name the file and the key; they quote no value but
 * the type and the project id, and never {@code private_key}.
 */
public final class GcsCredentialFileReader {
    static final Pattern PROJECT_ID = Pattern.compile("[a-z][a-z0-9-]{4,28}[a-z0-9]");
    static final Set<String> SERVICE_ACCOUNT_KEYS = Set.of(
            "type",
            "project_id",
            "client_email",
            "universe_domain",
            "auth_uri",
            "auth_provider_x509_cert_url",
            "client_x509_cert_url",
            "client_id",
            "private_key_id",
            "private_key",
            "token_uri");
    static final Set<String> EXTERNAL_ACCOUNT_REQUIRED =
            Set.of("audience", "credential_source", "subject_token_type", "token_url", "type", "universe_domain");
    static final String IMPERSONATION_URL_KEY = "service_account_impersonation_url";
    static final String SUBJECT_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:jwt";
    static final String TOKEN_URL = "https://sts.googleapis.com/v1/token";
    static final Pattern IMPERSONATION_URL = Pattern.compile(
            "https://iamcredentials\\.googleapis\\.com/v1/projects/-/serviceAccounts/.+:generateAccessToken");
    /** Beside an {@code external_account} file: the project and the subject token. */
    static final String PROJECT_ID_FILE = "projectID";

    static final String TOKEN_FILE = "token";
    private static final ObjectMapper JSON = new ObjectMapper();

    private GcsCredentialFileReader() {}

    /** Reads and checks {@code file}. */
    public static GcsCredentialFile read(Path file) {
        JsonNode root = parse(file);
        JsonNode type = root.get("type");
        String typeName = type != null && type.isTextual() ? type.asText() : "";
        if (Type.SERVICE_ACCOUNT.json().equals(typeName)) {
            return serviceAccount(file, root);
        }
        if (Type.EXTERNAL_ACCOUNT.json().equals(typeName)) {
            return externalAccount(file, root);
        }
        throw usage(
                file,
                "has type \"" + typeName + "\"; only \"" + Type.SERVICE_ACCOUNT.json() + "\" and \""
                        + Type.EXTERNAL_ACCOUNT.json() + "\" are accepted (as etcdbrctl v0.41 accepts)",
                null);
    }

    private static GcsCredentialFile serviceAccount(Path file, JsonNode root) {
        Set<String> extra = new TreeSet<>(keys(root));
        extra.removeAll(SERVICE_ACCOUNT_KEYS);
        if (!extra.isEmpty()) {
            throw usage(
                    file,
                    "has keys a service account key does not have: " + String.join(", ", extra) + " (allowed: "
                            + String.join(", ", new TreeSet<>(SERVICE_ACCOUNT_KEYS)) + ")",
                    null);
        }
        JsonNode project = root.get("project_id");
        String projectId = project != null && project.isTextual() ? project.asText() : "";
        if (!PROJECT_ID.matcher(projectId).matches()) {
            throw usage(
                    file, "has project_id \"" + projectId + "\", which is not a project id (" + PROJECT_ID + ")", null);
        }
        return new GcsCredentialFile(file, Type.SERVICE_ACCOUNT, projectId);
    }

    private static GcsCredentialFile externalAccount(Path file, JsonNode root) {
        String projectId = projectIdBeside(file, beside(file, PROJECT_ID_FILE));
        Set<String> keys = keys(root);
        Set<String> extra = new TreeSet<>(keys);
        extra.removeAll(EXTERNAL_ACCOUNT_REQUIRED);
        extra.remove(IMPERSONATION_URL_KEY);
        if (!extra.isEmpty()) {
            throw usage(
                    file, "has keys a workload identity configuration may not have: " + String.join(", ", extra), null);
        }
        Set<String> missing = new TreeSet<>(EXTERNAL_ACCOUNT_REQUIRED);
        missing.removeAll(keys);
        if (!missing.isEmpty()) {
            throw usage(file, "lacks " + String.join(", ", missing), null);
        }
        if (!SUBJECT_TOKEN_TYPE.equals(text(root, "subject_token_type"))) {
            throw usage(file, "must have subject_token_type \"" + SUBJECT_TOKEN_TYPE + "\"", null);
        }
        if (!TOKEN_URL.equals(text(root, "token_url"))) {
            throw usage(file, "must have token_url \"" + TOKEN_URL + "\"", null);
        }
        JsonNode source = root.get("credential_source");
        Path token = beside(file, TOKEN_FILE);
        if (!isTokenFileSource(source, token)) {
            throw usage(
                    file,
                    "must have credential_source {\"file\": \"" + token
                            + "\", \"format\": {\"type\": \"text\"}} and nothing else",
                    null);
        }
        if (root.has(IMPERSONATION_URL_KEY)) {
            String url = text(root, IMPERSONATION_URL_KEY);
            if (url == null || !IMPERSONATION_URL.matcher(url).matches()) {
                throw usage(file, "has a " + IMPERSONATION_URL_KEY + " that is not " + IMPERSONATION_URL, null);
            }
        }
        return new GcsCredentialFile(file, Type.EXTERNAL_ACCOUNT, projectId);
    }

    private static boolean isTokenFileSource(JsonNode source, Path token) {
        if (source == null || !source.isObject() || source.size() != 2) {
            return false;
        }
        JsonNode format = source.get("format");
        return token.toString().equals(text(source, "file"))
                && format != null
                && format.isObject()
                && format.size() == 1
                && "text".equals(text(format, "type"));
    }

    /** A file in the same directory, named as Go's {@code path.Join(path.Dir(file), name)} names it. */
    static Path beside(Path file, String name) {
        return file.getParent() == null ? Path.of(name) : file.getParent().resolve(name);
    }

    private static String projectIdBeside(Path file, Path projectFile) {
        String projectId;
        try {
            projectId = Files.readString(projectFile, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw usage(
                    file,
                    "is a workload identity configuration, but " + projectFile + " cannot be read ("
                            + e.getClass().getSimpleName() + ")",
                    e);
        }
        if (!PROJECT_ID.matcher(projectId).matches()) {
            throw usage(
                    file,
                    "is a workload identity configuration, but " + projectFile + " holds \"" + projectId
                            + "\", which is not a project id (" + PROJECT_ID + ")",
                    null);
        }
        return projectId;
    }

    private static JsonNode parse(Path file) {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            // Jackson's message may quote the content, which holds the private key: keep only the place.
            String line = e.getLocation() == null
                    ? "?"
                    : String.valueOf(e.getLocation().getLineNr());
            throw usage(file, "is not valid JSON (line " + line + ")", null);
        } catch (IOException e) {
            throw usage(file, "cannot be read (" + e.getClass().getSimpleName() + ")", e);
        }
        if (root == null || !root.isObject()) {
            throw usage(file, "must hold a JSON object", null);
        }
        return root;
    }

    private static Set<String> keys(JsonNode root) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return Set.copyOf(names);
    }

    private static String text(JsonNode node, String key) {
        JsonNode value = node.get(key);
        return value != null && value.isTextual() ? value.asText() : null;
    }

    private static WorkerException usage(Path file, String what, Throwable cause) {
        return new WorkerException(ErrorCode.USAGE, "GCS credentials " + file + " " + what, cause);
    }
}
