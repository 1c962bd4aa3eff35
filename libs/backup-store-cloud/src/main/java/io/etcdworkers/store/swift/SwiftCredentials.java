package io.etcdworkers.store.swift;

import java.util.Objects;
import java.util.Optional;

/**
 * How a Swift store logs in, as {@link SwiftCredentialsReader} found it.
 *
 * @param source the Secret file or directory, or the environment, the values came from (for messages)
 * @param method Keystone v3 (what etcdbrctl speaks) or Swift's tempauth v1
 * @param auth the login's values; for tempauth {@code authUrl}, {@code username} (with
 *     {@code projectName}, when given, as its account: {@code tenantName:username}) and {@code password}
 * @param secretRegion the Secret's {@code region}, which etcdbrctl reads but never uses to pick the
 *     endpoint (it takes {@code OS_REGION_NAME}); kept to warn when the two disagree
 */
public record SwiftCredentials(String source, Method method, KeystoneAuthInfo auth, Optional<String> secretRegion) {
    /** The login protocols this store speaks. */
    public enum Method {
        /** Keystone v3 ({@code POST <authURL>/auth/tokens}); the storage URL from the token's catalog. */
        KEYSTONE_V3,
        /** Swift's tempauth (or swauth) v1 ({@code GET <authURL>} with {@code X-Auth-User}/{@code X-Auth-Key}). */
        TEMPAUTH_V1
    }

    public SwiftCredentials {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(secretRegion, "secretRegion");
    }

    /** The tempauth user: {@code tenantName:username}, or the username alone when it has its account already. */
    public String tempauthUser() {
        if (auth.username().contains(":") || auth.projectName().isEmpty()) {
            return auth.username();
        }
        return auth.projectName() + ":" + auth.username();
    }

    /** Who logs in, without any secret, for the log. */
    public String describe() {
        if (method == Method.TEMPAUTH_V1) {
            return "tempauth v1 user " + tempauthUser() + " at " + auth.authUrl() + " (from " + source + ")";
        }
        String who = !auth.applicationCredentialId().isEmpty()
                ? "application credential " + auth.applicationCredentialId()
                : !auth.applicationCredentialName().isEmpty()
                        ? "application credential " + auth.applicationCredentialName()
                        : !auth.token().isEmpty()
                                ? "a token"
                                : "user " + (auth.username().isEmpty() ? auth.userId() : auth.username());
        return "Keystone v3 " + who + " at " + auth.authUrl() + " (from " + source + ")";
    }
}
