package io.etcdworkers.store.swift;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.util.Objects;

/**
 * The body of a Keystone v3 token request ({@code POST /v3/auth/tokens}) built from a
 * {@link KeystoneAuthInfo} exactly as etcdbrctl's gophercloud builds it: {@code clientconfig}'s
 * v3 rules decide the scope and which domain goes with the user, then gophercloud's
 * {@code ToTokenV3CreateMap} and {@code ToTokenV3ScopeMap} write the identity and the scope. So a
 * Secret logs in here to the same project as it does for the backup sidecar, and a Secret that
 * gophercloud refuses is refused here too, with a message naming what to set.
 *
 * <ul>
 *   <li>Password: {@code password} with {@code username} and a user domain (etcdbrctl's
 *       {@code domainName} is both the user's and the project's domain), or with {@code OS_USER_ID};
 *       scoped to the project {@code tenantName} in that domain (or {@code OS_PROJECT_ID}), else to
 *       the domain itself.</li>
 *   <li>Application credential: by {@code applicationCredentialID}, or by
 *       {@code applicationCredentialName} with a user (name and domain, or id); always with
 *       {@code applicationCredentialSecret}; never scoped (the credential carries its project).</li>
 *   <li>Token ({@code OS_TOKEN}/{@code OS_AUTH_TOKEN}): only with a scope, as etcdbrctl, which
 *       asks to re-authenticate, refuses a bare token.</li>
 * </ul>
 */
public final class KeystoneTokenRequest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private KeystoneTokenRequest() {}

    /** The scope a login asks for, as gophercloud's {@code AuthScope}. */
    record Scope(String projectId, String projectName, String domainId, String domainName) {
        static final Scope NONE = new Scope("", "", "", "");
    }

    /**
     * @param source names the Secret or environment the values came from, for messages
     * @throws WorkerException {@link ErrorCode#USAGE} when gophercloud would refuse the values
     */
    public static ObjectNode body(KeystoneAuthInfo info, String source) {
        Objects.requireNonNull(info, "info");
        KeystoneAuthInfo a = info;
        Scope scope;
        if (a.isApplicationCredential()) {
            a = a.withDomainSpread();
            scope = Scope.NONE;
        } else if (a.projectId().isEmpty() && a.projectName().isEmpty()) {
            scope = !a.domainId().isEmpty()
                    ? new Scope("", "", a.domainId(), "")
                    : new Scope("", "", "", a.domainName());
        } else {
            a = a.withDomainSpread();
            scope = !a.projectId().isEmpty()
                    ? new Scope(a.projectId(), "", "", "")
                    : new Scope("", a.projectName(), a.projectDomainId(), a.projectDomainName());
        }
        String username = a.username();
        String userId = a.userId();
        String password = a.password();
        String userDomainId = a.userDomainId();
        String userDomainName = a.userDomainName();
        if (!a.token().isEmpty()) {
            username = "";
            password = "";
            userId = "";
            userDomainId = "";
            userDomainName = "";
        }
        if (a.authUrl().isEmpty()) {
            throw usage(source, "no Keystone URL: set authURL (or OS_AUTH_URL)");
        }
        if (!a.token().isEmpty() && scope.equals(Scope.NONE)) {
            throw usage(
                    source,
                    "a token (OS_TOKEN/OS_AUTH_TOKEN) without a project or domain to scope it to cannot be "
                            + "renewed, so etcdbrctl refuses it too: set tenantName or OS_PROJECT_ID, or log in with a password");
        }
        ObjectNode identity = identity(a, username, userId, password, userDomainId, userDomainName, source);
        ObjectNode auth = JSON.objectNode();
        auth.set("identity", identity);
        ObjectNode scopeNode = scope(scope, source);
        if (scopeNode != null) {
            auth.set("scope", scopeNode);
        }
        ObjectNode body = JSON.objectNode();
        body.set("auth", auth);
        return body;
    }

    private static ObjectNode identity(
            KeystoneAuthInfo a,
            String username,
            String userId,
            String password,
            String userDomainId,
            String userDomainName,
            String source) {
        ObjectNode identity = JSON.objectNode();
        if (password.isEmpty()) {
            if (!a.token().isEmpty()) {
                identity.putArray("methods").add("token");
                identity.putObject("token").put("id", a.token());
            } else if (!a.applicationCredentialId().isEmpty()) {
                requireSecret(a, source);
                identity.putArray("methods").add("application_credential");
                identity.putObject("application_credential")
                        .put("id", a.applicationCredentialId())
                        .put("secret", a.applicationCredentialSecret());
            } else if (!a.applicationCredentialName().isEmpty()) {
                requireSecret(a, source);
                ObjectNode user;
                if (!userId.isEmpty()) {
                    user = JSON.objectNode().put("id", userId);
                } else if (username.isEmpty()) {
                    throw usage(
                            source,
                            "an application credential given by name (applicationCredentialName) needs "
                                    + "its user: set OS_USERNAME and a domain, or OS_USER_ID, or give applicationCredentialID");
                } else if (!userDomainId.isEmpty()) {
                    user = JSON.objectNode().put("name", username);
                    user.putObject("domain").put("id", userDomainId);
                } else if (!userDomainName.isEmpty()) {
                    user = JSON.objectNode().put("name", username);
                    user.putObject("domain").put("name", userDomainName);
                } else {
                    throw usage(source, "the user of the application credential needs a domain: set domainName");
                }
                identity.putArray("methods").add("application_credential");
                ObjectNode credential = identity.putObject("application_credential");
                credential.put("name", a.applicationCredentialName());
                credential.set("user", user);
                credential.put("secret", a.applicationCredentialSecret());
            } else {
                throw usage(
                        source,
                        "no password and no application credential: set username and password, or "
                                + "applicationCredentialID (or applicationCredentialName) and applicationCredentialSecret");
            }
            return identity;
        }
        identity.putArray("methods").add("password");
        if (username.isEmpty() && userId.isEmpty()) {
            throw usage(source, "a password without a user: set username (or OS_USER_ID)");
        }
        ObjectNode user;
        if (!username.isEmpty()) {
            if (!userId.isEmpty()) {
                throw usage(source, "both a username and OS_USER_ID: give one of them");
            }
            if (userDomainId.isEmpty() && userDomainName.isEmpty()) {
                throw usage(
                        source,
                        "the user needs a domain: set domainName (or OS_USER_DOMAIN_NAME, " + "OS_USER_DOMAIN_ID)");
            }
            if (!userDomainId.isEmpty() && !userDomainName.isEmpty()) {
                throw usage(source, "the user's domain is given by both id and name: give one of them");
            }
            user = JSON.objectNode().put("name", username).put("password", password);
            if (!userDomainId.isEmpty()) {
                user.putObject("domain").put("id", userDomainId);
            } else {
                user.putObject("domain").put("name", userDomainName);
            }
        } else {
            if (!userDomainId.isEmpty() || !userDomainName.isEmpty()) {
                throw usage(source, "OS_USER_ID names the user alone: drop the user's domain");
            }
            user = JSON.objectNode().put("id", userId).put("password", password);
        }
        identity.putObject("password").set("user", user);
        return identity;
    }

    private static ObjectNode scope(Scope scope, String source) {
        ObjectNode node = JSON.objectNode();
        if (!scope.projectName().isEmpty()) {
            if (scope.domainId().isEmpty() && scope.domainName().isEmpty()) {
                throw usage(
                        source,
                        "the project (tenantName) needs a domain: set domainName (or "
                                + "OS_PROJECT_DOMAIN_NAME, OS_PROJECT_DOMAIN_ID)");
            }
            ObjectNode project = node.putObject("project").put("name", scope.projectName());
            if (!scope.domainId().isEmpty()) {
                project.putObject("domain").put("id", scope.domainId());
            } else {
                project.putObject("domain").put("name", scope.domainName());
            }
            return node;
        }
        if (!scope.projectId().isEmpty()) {
            node.putObject("project").put("id", scope.projectId());
            return node;
        }
        if (!scope.domainId().isEmpty()) {
            node.putObject("domain").put("id", scope.domainId());
            return node;
        }
        if (!scope.domainName().isEmpty()) {
            node.putObject("domain").put("name", scope.domainName());
            return node;
        }
        return null;
    }

    private static void requireSecret(KeystoneAuthInfo a, String source) {
        if (a.applicationCredentialSecret().isEmpty()) {
            throw usage(source, "an application credential without its secret: set applicationCredentialSecret");
        }
    }

    private static WorkerException usage(String source, String what) {
        return new WorkerException(ErrorCode.USAGE, "Swift credentials " + source + ": " + what);
    }
}
