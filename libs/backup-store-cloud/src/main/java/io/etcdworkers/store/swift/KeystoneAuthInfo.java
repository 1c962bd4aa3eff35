package io.etcdworkers.store.swift;

import java.util.Map;
import java.util.Objects;

/**
 * What a Keystone v3 login is built from, field for field gophercloud's {@code clientconfig.AuthInfo},
 * which etcdbrctl's Swift store fills from its Secret and then, for every field still empty, from
 * the {@code OS_*} environment ({@link #withEnvFallbacks}). An absent value is {@code ""}, as in Go.
 *
 * <p>The secrets ({@code password}, {@code token}, {@code applicationCredentialSecret}) never
 * appear in {@link #toString()}.
 */
public record KeystoneAuthInfo(
        String authUrl,
        String token,
        String username,
        String userId,
        String password,
        String projectId,
        String projectName,
        String domainId,
        String domainName,
        String defaultDomain,
        String projectDomainId,
        String projectDomainName,
        String userDomainId,
        String userDomainName,
        String applicationCredentialId,
        String applicationCredentialName,
        String applicationCredentialSecret) {

    public static final KeystoneAuthInfo EMPTY =
            new KeystoneAuthInfo("", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "");

    public KeystoneAuthInfo {
        authUrl = Objects.requireNonNullElse(authUrl, "");
        token = Objects.requireNonNullElse(token, "");
        username = Objects.requireNonNullElse(username, "");
        userId = Objects.requireNonNullElse(userId, "");
        password = Objects.requireNonNullElse(password, "");
        projectId = Objects.requireNonNullElse(projectId, "");
        projectName = Objects.requireNonNullElse(projectName, "");
        domainId = Objects.requireNonNullElse(domainId, "");
        domainName = Objects.requireNonNullElse(domainName, "");
        defaultDomain = Objects.requireNonNullElse(defaultDomain, "");
        projectDomainId = Objects.requireNonNullElse(projectDomainId, "");
        projectDomainName = Objects.requireNonNullElse(projectDomainName, "");
        userDomainId = Objects.requireNonNullElse(userDomainId, "");
        userDomainName = Objects.requireNonNullElse(userDomainName, "");
        applicationCredentialId = Objects.requireNonNullElse(applicationCredentialId, "");
        applicationCredentialName = Objects.requireNonNullElse(applicationCredentialName, "");
        applicationCredentialSecret = Objects.requireNonNullElse(applicationCredentialSecret, "");
    }

    /** A password login as etcdbrctl's Secret gives it: auth URL, user domain, user and password. */
    public static KeystoneAuthInfo password(String authUrl, String domainName, String username, String password) {
        return new KeystoneAuthInfo(
                authUrl, "", username, "", password, "", "", "", domainName, "", "", "", "", "", "", "", "");
    }

    /** An application credential login as etcdbrctl's Secret gives it. */
    public static KeystoneAuthInfo applicationCredential(
            String authUrl, String domainName, String id, String name, String secret) {
        return new KeystoneAuthInfo(
                authUrl, "", "", "", "", "", "", "", domainName, "", "", "", "", "", id, name, secret);
    }

    /** Whether any application credential field is set (gophercloud's {@code isApplicationCredential}). */
    public boolean isApplicationCredential() {
        return !applicationCredentialId.isEmpty()
                || !applicationCredentialName.isEmpty()
                || !applicationCredentialSecret.isEmpty();
    }

    /**
     * Every empty field filled from {@code env} as gophercloud's {@code clientconfig} v3 path does
     * it ({@code OS_AUTH_URL}, {@code OS_USERNAME}, ...). Where two variables feed one field the
     * later wins, as there: {@code OS_AUTH_TOKEN} over {@code OS_TOKEN}, {@code OS_PROJECT_ID}
     * over {@code OS_TENANT_ID}, {@code OS_PROJECT_NAME} over {@code OS_TENANT_NAME}.
     */
    public KeystoneAuthInfo withEnvFallbacks(Map<String, String> env) {
        return new KeystoneAuthInfo(
                or(authUrl, env, "OS_AUTH_URL"),
                or(token, env, "OS_TOKEN", "OS_AUTH_TOKEN"),
                or(username, env, "OS_USERNAME"),
                or(userId, env, "OS_USER_ID"),
                or(password, env, "OS_PASSWORD"),
                or(projectId, env, "OS_TENANT_ID", "OS_PROJECT_ID"),
                or(projectName, env, "OS_TENANT_NAME", "OS_PROJECT_NAME"),
                or(domainId, env, "OS_DOMAIN_ID"),
                or(domainName, env, "OS_DOMAIN_NAME"),
                or(defaultDomain, env, "OS_DEFAULT_DOMAIN"),
                or(projectDomainId, env, "OS_PROJECT_DOMAIN_ID"),
                or(projectDomainName, env, "OS_PROJECT_DOMAIN_NAME"),
                or(userDomainId, env, "OS_USER_DOMAIN_ID"),
                or(userDomainName, env, "OS_USER_DOMAIN_NAME"),
                or(applicationCredentialId, env, "OS_APPLICATION_CREDENTIAL_ID"),
                or(applicationCredentialName, env, "OS_APPLICATION_CREDENTIAL_NAME"),
                or(applicationCredentialSecret, env, "OS_APPLICATION_CREDENTIAL_SECRET"));
    }

    /**
     * gophercloud's {@code setDomainIfNeeded}: the general domain becomes the user's and the
     * project's where those are not given, and the default domain fills what is still open.
     */
    KeystoneAuthInfo withDomainSpread() {
        String uId = userDomainId;
        String pId = projectDomainId;
        String uName = userDomainName;
        String pName = projectDomainName;
        String dId = domainId;
        String dName = domainName;
        if (!dId.isEmpty()) {
            uId = uId.isEmpty() ? dId : uId;
            pId = pId.isEmpty() ? dId : pId;
            dId = "";
        }
        if (!dName.isEmpty()) {
            uName = uName.isEmpty() ? dName : uName;
            pName = pName.isEmpty() ? dName : pName;
            dName = "";
        }
        if (!defaultDomain.isEmpty()) {
            if (uName.isEmpty() && uId.isEmpty()) {
                uId = defaultDomain;
            }
            if (pName.isEmpty() && pId.isEmpty()) {
                pId = defaultDomain;
            }
        }
        return new KeystoneAuthInfo(
                authUrl,
                token,
                username,
                userId,
                password,
                projectId,
                projectName,
                dId,
                dName,
                defaultDomain,
                pId,
                pName,
                uId,
                uName,
                applicationCredentialId,
                applicationCredentialName,
                applicationCredentialSecret);
    }

    private static String or(String value, Map<String, String> env, String... names) {
        if (!value.isEmpty()) {
            return value;
        }
        String found = "";
        for (String name : names) {
            String v = env.get(name);
            if (v != null && !v.isEmpty()) {
                found = v;
            }
        }
        return found;
    }

    @Override
    public String toString() {
        return "KeystoneAuthInfo[authUrl=" + authUrl + ", token=" + mask(token) + ", username=" + username
                + ", userId=" + userId + ", password=" + mask(password) + ", projectId=" + projectId
                + ", projectName=" + projectName + ", domainId=" + domainId + ", domainName=" + domainName
                + ", defaultDomain=" + defaultDomain + ", projectDomainId=" + projectDomainId
                + ", projectDomainName=" + projectDomainName + ", userDomainId=" + userDomainId
                + ", userDomainName=" + userDomainName + ", applicationCredentialId=" + applicationCredentialId
                + ", applicationCredentialName=" + applicationCredentialName + ", applicationCredentialSecret="
                + mask(applicationCredentialSecret) + "]";
    }

    private static String mask(String secret) {
        return secret.isEmpty() ? "" : "***";
    }
}
