package io.etcdworkers.store.swift;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerEnv;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.CredentialSecret;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds the Swift login the way etcdbrctl's Swift store ({@code pkg/snapstore/swift_snapstore.go},
 * gophercloud v0.17 with its {@code clientconfig}) does, so etcd-druid's Secret works unchanged:
 * <ol>
 *   <li>{@value #CREDENTIALS_JSON_ENV} (a JSON file), else {@value #CREDENTIALS_DIR_ENV} (the
 *       mounted Secret: its first {@code *.json} file, else one file per key; see
 *       {@link CredentialSecret}). Keys: {@code authURL}, {@code domainName}, {@code tenantName},
 *       {@code username} and {@code password}, or {@code applicationCredentialID},
 *       {@code applicationCredentialName} and {@code applicationCredentialSecret}; {@code region}
 *       is read (etcdbrctl reads it and then ignores it).</li>
 *   <li>With neither, the {@code OS_*} environment alone ({@code OS_AUTH_URL}, {@code OS_USERNAME},
 *       {@code OS_PASSWORD}, {@code OS_PROJECT_NAME}, {@code OS_USER_DOMAIN_NAME}, ...); with a
 *       Secret, the environment still fills every field the Secret leaves empty, and the Secret's
 *       {@code tenantName} replaces {@code OS_TENANT_NAME} (etcdbrctl sets that variable from it), so
 *       {@code OS_PROJECT_NAME} would still win over it, as there.</li>
 * </ol>
 * How the login type is decided, and which keys must be there, follows etcdbrctl per form: the
 * JSON form is a password login when it has {@code username}, an application credential when it
 * has {@code applicationCredentialSecret}, refused with both or neither; the directory form is an
 * application credential when a file {@code applicationCredentialID} or
 * {@code applicationCredentialSecret} exists, else a password login when {@code username} or
 * {@code password} exists, and must then hold every key of its type (with {@code tenantName}).
 *
 * <p>Beyond etcdbrctl: an {@code authURL} whose path ends in {@code /v1.0} (Swift's
 * {@code /auth/v1.0}) selects tempauth v1, for a Swift without Keystone: {@code username} (as
 * {@code tenantName:username} when the Secret has a {@code tenantName} and the name has no
 * colon) and {@code password} as the key. Not read, and refused with a message: Keystone v2
 * ({@code OS_IDENTITY_API_VERSION=2}, an auth URL with {@code v2.0}; OpenStack retired it in
 * Queens) and {@code clouds.yaml} ({@code OS_CLOUD}).
 *
 * <p>Errors are {@link ErrorCode#USAGE} and name the Secret and key, never a value.
 */
public final class SwiftCredentialsReader {
    public static final String CREDENTIALS_JSON_ENV = WorkerEnv.OPENSTACK_APPLICATION_CREDENTIALS_JSON;
    public static final String CREDENTIALS_DIR_ENV = WorkerEnv.OPENSTACK_APPLICATION_CREDENTIALS;
    static final String PROVIDER = "Swift";
    static final String ENVIRONMENT = "the OS_* environment";
    /** Where a worker looks for Swift credentials, in order; for the message. */
    static final String WHERE = "the file named by " + CREDENTIALS_JSON_ENV + ", the directory named by "
            + CREDENTIALS_DIR_ENV + " (etcd-druid mounts the backup Secret there: a *.json file, or the files authURL, "
            + "domainName, tenantName, username and password or applicationCredential*), then OS_AUTH_URL and the "
            + "other OS_* variables";

    private static final List<String> APPLICATION_KEYS =
            List.of("applicationCredentialID", "applicationCredentialName", "applicationCredentialSecret");

    private SwiftCredentialsReader() {}

    /** The login the environment describes, checked as far as it can be without a request. */
    public static SwiftCredentials read(Map<String, String> env) {
        Objects.requireNonNull(env, "env");
        if (present(env, "OS_CLOUD")) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    "OS_CLOUD is set, but this worker does not read clouds.yaml: " + "mount the Secret ("
                            + CREDENTIALS_DIR_ENV + ") or set OS_AUTH_URL and the other OS_* variables");
        }
        Optional<CredentialSecret> secret =
                CredentialSecret.fromEnv(PROVIDER, env, CREDENTIALS_JSON_ENV, CREDENTIALS_DIR_ENV);
        KeystoneAuthInfo info;
        String source;
        Optional<String> region = Optional.empty();
        if (secret.isPresent()) {
            CredentialSecret s = secret.get();
            source = s.source().toString();
            Map<String, String> withTenant = new HashMap<>(env);
            Optional<String> tenant = s.text("tenantName");
            // etcdbrctl: os.Setenv("OS_TENANT_NAME", tenantName), even when it is empty.
            tenant.ifPresentOrElse(t -> withTenant.put("OS_TENANT_NAME", t), () -> withTenant.remove("OS_TENANT_NAME"));
            info = fromSecret(s).withEnvFallbacks(withTenant);
            region = s.text("region");
        } else {
            source = ENVIRONMENT;
            info = KeystoneAuthInfo.EMPTY.withEnvFallbacks(env);
            if (info.authUrl().isEmpty()) {
                throw new WorkerException(ErrorCode.USAGE, "no Swift credentials found; looked in " + WHERE);
            }
        }
        if (info.authUrl().isEmpty()) {
            throw new WorkerException(ErrorCode.USAGE, "Swift credentials " + source + ": no authURL (or OS_AUTH_URL)");
        }
        URI authUrl = parseAuthUrl(info.authUrl(), source);
        if (isTempauth(authUrl)) {
            if (info.username().isEmpty() || info.password().isEmpty()) {
                throw new WorkerException(
                        ErrorCode.USAGE,
                        "Swift credentials " + source + ": the auth URL ends in "
                                + "/v1.0, so tempauth v1, which needs username and password");
            }
            return new SwiftCredentials(source, SwiftCredentials.Method.TEMPAUTH_V1, info, region);
        }
        String version = env.getOrDefault("OS_IDENTITY_API_VERSION", "").strip();
        if (version.equals("2")
                || version.equals("2.0")
                || info.authUrl().contains("v2.0") && !info.authUrl().contains("v3")) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    "Swift credentials " + source + ": Keystone v2 (an auth URL with "
                            + "v2.0 or OS_IDENTITY_API_VERSION=2) is not supported; give Keystone's v3 URL");
        }
        // Built once here so that what gophercloud would refuse exits 2 before any request.
        KeystoneTokenRequest.body(info, source);
        return new SwiftCredentials(source, SwiftCredentials.Method.KEYSTONE_V3, info, region);
    }

    /** Whether an auth URL is a tempauth/swauth v1 one: its path ends in {@code /v1.0}. */
    static boolean isTempauth(URI authUrl) {
        String path = authUrl.getPath() == null ? "" : authUrl.getPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return path.toLowerCase(Locale.ROOT).endsWith("/v1.0");
    }

    private static KeystoneAuthInfo fromSecret(CredentialSecret s) {
        String authUrl = s.text("authURL").orElse("");
        String domain = s.text("domainName").orElse("");
        String username = s.text("username").orElse("");
        String password = s.text("password").orElse("");
        String id = s.text("applicationCredentialID").orElse("");
        String name = s.text("applicationCredentialName").orElse("");
        String secret = s.text("applicationCredentialSecret").orElse("");
        if (!authUrl.isEmpty() && isTempauth(parseAuthUrl(authUrl, s.source().toString()))) {
            // Not etcdbrctl's (it has no tempauth): no Keystone keys to insist on; read() checks the user and key.
            return KeystoneAuthInfo.password(authUrl, domain, username, password);
        }
        boolean application;
        if (s.isDirectory()) {
            // etcdbrctl decides by which files exist (sorted, the applicationCredential* files come first) ...
            application = s.has("applicationCredentialID") || s.has("applicationCredentialSecret");
            if (!application && !s.has("username") && !s.has("password")) {
                throw s.invalid(
                        "holds neither username/password nor applicationCredentialID/applicationCredentialSecret");
            }
            // ... and then wants every key of that type (isSwiftConfigCorrect).
            if ((!secret.isEmpty() || !id.isEmpty()) && (!password.isEmpty() || !username.isEmpty())) {
                throw s.invalid("holds both username/password and an application credential: give one of them");
            }
            List<String> missing = new ArrayList<>();
            List<String> needed = new ArrayList<>(List.of("authURL", "tenantName", "domainName"));
            needed.addAll(application ? APPLICATION_KEYS : List.of("username", "password"));
            for (String key : needed) {
                if (s.text(key).isEmpty()) {
                    missing.add(key);
                }
            }
            if (!missing.isEmpty()) {
                throw s.invalid("must set " + String.join(", ", needed) + "; missing: " + String.join(", ", missing));
            }
        } else {
            // The JSON form: decided by the secret and the username alone, nothing else checked (as etcdbrctl).
            if (!secret.isEmpty() && !username.isEmpty()) {
                throw s.invalid("sets both username and applicationCredentialSecret: give one of them");
            }
            if (secret.isEmpty() && username.isEmpty()) {
                throw s.invalid("sets neither username nor applicationCredentialSecret");
            }
            application = !secret.isEmpty();
        }
        return application
                ? KeystoneAuthInfo.applicationCredential(authUrl, domain, id, name, secret)
                : KeystoneAuthInfo.password(authUrl, domain, username, password);
    }

    private static URI parseAuthUrl(String value, String source) {
        try {
            URI uri = new URI(value.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
                throw new URISyntaxException(value, "expected http[s]://host[:port]/...");
            }
            return uri;
        } catch (URISyntaxException e) {
            // Not the parser's message alone: it quotes the whole input, which is no secret but may be long.
            throw new WorkerException(
                    ErrorCode.USAGE,
                    "Swift credentials " + source + ": authURL is not a URL (" + e.getReason() + ")",
                    e);
        }
    }

    private static boolean present(Map<String, String> env, String name) {
        String v = env.get(name);
        return v != null && !v.isBlank();
    }
}
