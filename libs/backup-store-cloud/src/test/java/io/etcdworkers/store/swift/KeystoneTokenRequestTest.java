package io.etcdworkers.store.swift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The token request gophercloud (and so etcdbrctl) sends for each combination of Secret keys and
 * {@code OS_*} variables: the identity, which domain goes with the user, and the scope. Given as
 * {@code OS_*} pairs only; the Secret's keys land in the same fields.
 */
class KeystoneTokenRequestTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // a password login with etcdbrctl's domainName: user and project in that domain
                "OS_USERNAME=u,OS_PASSWORD=p,OS_DOMAIN_NAME=D,OS_PROJECT_NAME=t | {\"methods\":[\"password\"],\"password\":{\"user\":{\"name\":\"u\",\"password\":\"p\",\"domain\":{\"name\":\"D\"}}}} | {\"project\":{\"name\":\"t\",\"domain\":{\"name\":\"D\"}}}",
                // no project: scoped to the domain, and the user's domain must be given on its own
                "OS_USERNAME=u,OS_PASSWORD=p,OS_DOMAIN_ID=d1,OS_USER_DOMAIN_ID=d2 | {\"methods\":[\"password\"],\"password\":{\"user\":{\"name\":\"u\",\"password\":\"p\",\"domain\":{\"id\":\"d2\"}}}} | {\"domain\":{\"id\":\"d1\"}}",
                // a user id needs no domain; a project id scopes alone
                "OS_USER_ID=uid,OS_PASSWORD=p,OS_PROJECT_ID=pid | {\"methods\":[\"password\"],\"password\":{\"user\":{\"id\":\"uid\",\"password\":\"p\"}}} | {\"project\":{\"id\":\"pid\"}}",
                // the default domain fills what is open
                "OS_USERNAME=u,OS_PASSWORD=p,OS_PROJECT_NAME=t,OS_DEFAULT_DOMAIN=default | {\"methods\":[\"password\"],\"password\":{\"user\":{\"name\":\"u\",\"password\":\"p\",\"domain\":{\"id\":\"default\"}}}} | {\"project\":{\"name\":\"t\",\"domain\":{\"id\":\"default\"}}}",
                // an application credential by name names its user; never scoped
                "OS_APPLICATION_CREDENTIAL_NAME=n,OS_APPLICATION_CREDENTIAL_SECRET=s,OS_USERNAME=u,OS_DOMAIN_NAME=D,OS_PROJECT_NAME=t | {\"methods\":[\"application_credential\"],\"application_credential\":{\"name\":\"n\",\"user\":{\"name\":\"u\",\"domain\":{\"name\":\"D\"}},\"secret\":\"s\"}} | ",
                // a token with a scope: the user fields are dropped
                "OS_TOKEN=tok,OS_USERNAME=u,OS_PROJECT_ID=pid | {\"methods\":[\"token\"],\"token\":{\"id\":\"tok\"}} | {\"project\":{\"id\":\"pid\"}}"
            })
    void theRequestIsGopherclouds(String pairs, String identity, String scope) {
        KeystoneAuthInfo info = KeystoneAuthInfo.EMPTY.withEnvFallbacks(env("OS_AUTH_URL=https://k/v3," + pairs));

        var body = KeystoneTokenRequest.body(info, "the OS_* environment");

        assertThat(body.path("auth").path("identity").toString()).isEqualTo(identity);
        assertThat(body.path("auth").has("scope")).isEqualTo(scope != null);
        if (scope != null) {
            assertThat(body.path("auth").path("scope").toString()).isEqualTo(scope);
        }
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "OS_USERNAME=u,OS_PASSWORD=p,OS_PROJECT_NAME=t | the user needs a domain",
                "OS_USERNAME=u,OS_USER_ID=i,OS_PASSWORD=p,OS_DOMAIN_NAME=D,OS_PROJECT_NAME=t | both a username and OS_USER_ID",
                "OS_PASSWORD=p,OS_PROJECT_NAME=t,OS_DOMAIN_NAME=D | a password without a user",
                "OS_USERNAME=u,OS_PROJECT_NAME=t,OS_DOMAIN_NAME=D | no password and no application credential",
                "OS_APPLICATION_CREDENTIAL_ID=i | an application credential without its secret",
                "OS_APPLICATION_CREDENTIAL_NAME=n,OS_APPLICATION_CREDENTIAL_SECRET=s | needs its user"
            })
    void whatGopherclouldRefusesIsRefusedWithWhatToSet(String pairs, String message) {
        KeystoneAuthInfo info = KeystoneAuthInfo.EMPTY.withEnvFallbacks(env("OS_AUTH_URL=https://k/v3," + pairs));

        assertThatThrownBy(() -> KeystoneTokenRequest.body(info, "the OS_* environment"))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                    assertThat(e.getMessage())
                            .startsWith("Swift credentials the OS_* environment: ")
                            .contains(message);
                });
    }

    private static Map<String, String> env(String pairs) {
        Map<String, String> env = new HashMap<>();
        for (String pair : pairs.split(",")) {
            env.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
        }
        return env;
    }
}
