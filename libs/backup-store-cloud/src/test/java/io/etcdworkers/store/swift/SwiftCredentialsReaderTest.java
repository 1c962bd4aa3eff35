package io.etcdworkers.store.swift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Where the Swift login comes from, as etcdbrctl's Swift store finds it: the Secret's two forms
 * with their different rules, the {@code OS_*} fallbacks, tempauth, and refusals that name the key.
 */
class SwiftCredentialsReaderTest {
    private static final String AUTH = "https://keystone.example:5000/v3";

    @TempDir
    Path dir;

    @Test
    void theMountedSecretIsAPasswordLoginScopedToTheTenantInTheDomain() throws IOException {
        Map<String, String> env = dirSecret(Map.of(
                "authURL",
                AUTH + "\n",
                "domainName",
                "Default\n",
                "tenantName",
                "etcd\n",
                "username",
                "backup\n",
                "password",
                "pw\n",
                "region",
                "RegionOne\n"));

        SwiftCredentials read = SwiftCredentialsReader.read(env);

        assertThat(read.method()).isEqualTo(SwiftCredentials.Method.KEYSTONE_V3);
        assertThat(read.source()).isEqualTo(dir.toString());
        assertThat(read.secretRegion()).contains("RegionOne");
        assertThat(KeystoneTokenRequest.body(read.auth(), read.source()).toString())
                .isEqualTo("{\"auth\":{\"identity\":"
                        + "{\"methods\":[\"password\"],\"password\":{\"user\":{\"name\":\"backup\",\"password\":\"pw\","
                        + "\"domain\":{\"name\":\"Default\"}}}},\"scope\":{\"project\":{\"name\":\"etcd\",\"domain\":"
                        + "{\"name\":\"Default\"}}}}}");
        assertThat(read.toString() + read.describe()).doesNotContain("pw\"", "=pw");
    }

    @Test
    void applicationCredentialFilesWinAndNeedEveryKeyOfTheirKind() throws IOException {
        Map<String, String> env = dirSecret(Map.of(
                "authURL",
                AUTH,
                "domainName",
                "Default",
                "tenantName",
                "etcd",
                "applicationCredentialID",
                "ac1",
                "applicationCredentialName",
                "restore",
                "applicationCredentialSecret",
                "s3cr3t"));

        SwiftCredentials read = SwiftCredentialsReader.read(env);

        assertThat(KeystoneTokenRequest.body(read.auth(), read.source()).toString())
                .isEqualTo("{\"auth\":{\"identity\":"
                        + "{\"methods\":[\"application_credential\"],\"application_credential\":{\"id\":\"ac1\",\"secret\":"
                        + "\"s3cr3t\"}}}}");
        assertThat(read.describe()).contains("application credential ac1").doesNotContain("s3cr3t");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "authURL,tenantName,domainName,username | must set authURL, tenantName, domainName, username, password; missing: password",
                "authURL,domainName,username,password | missing: tenantName",
                "authURL,tenantName,domainName,applicationCredentialSecret | missing: applicationCredentialID, applicationCredentialName",
                "authURL,tenantName,domainName,applicationCredentialID,applicationCredentialName,applicationCredentialSecret,username | both username/password and an application credential",
                "authURL,tenantName,domainName | neither username/password nor applicationCredentialID"
            })
    void theDirectoryFormWantsWhatEtcdbrctlWants(String keys, String message) throws IOException {
        Map<String, String> files = new LinkedHashMap<>();
        for (String key : keys.split(",")) {
            files.put(key, key.equals("authURL") ? AUTH : "v");
        }
        Map<String, String> env = dirSecret(files);

        assertThatThrownBy(() -> SwiftCredentialsReader.read(env)).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
            assertThat(e.getMessage()).contains("Swift credentials " + dir, message);
        });
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"authURL\":\"" + AUTH
                        + "\",\"username\":\"u\",\"applicationCredentialSecret\":\"s\"} | sets both username and applicationCredentialSecret",
                "{\"authURL\":\"" + AUTH
                        + "\",\"password\":\"p\"} | sets neither username nor applicationCredentialSecret",
                "{\"authURL\":\"" + AUTH
                        + "\",\"username\":\"u\",\"password\":\"p\",\"tenantName\":\"t\"} | the user needs a domain: set domainName"
            })
    void theJsonFormIsDecidedByUsernameAndSecretAlone(String json, String message) throws IOException {
        Path file = dir.resolve("swift.json");
        Files.writeString(file, json);

        assertThatThrownBy(() ->
                        SwiftCredentialsReader.read(Map.of("OPENSTACK_APPLICATION_CREDENTIALS_JSON", file.toString())))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                    assertThat(e.getMessage())
                            .contains(file.toString(), message)
                            .doesNotContain("\"p\"");
                });
    }

    @Test
    void withoutASecretTheOsEnvironmentLogsInAndProjectNameBeatsTenantName() {
        SwiftCredentials read = SwiftCredentialsReader.read(Map.of(
                "OS_AUTH_URL",
                AUTH,
                "OS_USERNAME",
                "u",
                "OS_PASSWORD",
                "p",
                "OS_USER_DOMAIN_NAME",
                "Users",
                "OS_TENANT_NAME",
                "old",
                "OS_PROJECT_NAME",
                "etcd",
                "OS_PROJECT_DOMAIN_ID",
                "default"));

        assertThat(read.source()).isEqualTo("the OS_* environment");
        assertThat(KeystoneTokenRequest.body(read.auth(), read.source()).toString())
                .isEqualTo(
                        "{\"auth\":{\"identity\":"
                                + "{\"methods\":[\"password\"],\"password\":{\"user\":{\"name\":\"u\",\"password\":\"p\",\"domain\":"
                                + "{\"name\":\"Users\"}}}},\"scope\":{\"project\":{\"name\":\"etcd\",\"domain\":{\"id\":\"default\"}}}}}");
    }

    @Test
    void theSecretsTenantReplacesOsTenantNameButTheEnvironmentFillsWhatItLeavesOpen() throws IOException {
        Map<String, String> env = new HashMap<>(dirSecret(Map.of(
                "authURL", AUTH, "domainName", "Default", "tenantName", "etcd", "username", "u", "password", "p")));
        env.put("OS_TENANT_NAME", "other");
        env.put("OS_PROJECT_ID", "p-123");

        SwiftCredentials read = SwiftCredentialsReader.read(env);

        // gophercloud: a project id wins over any name, wherever it came from.
        assertThat(KeystoneTokenRequest.body(read.auth(), read.source())
                        .path("auth")
                        .path("scope")
                        .toString())
                .isEqualTo("{\"project\":{\"id\":\"p-123\"}}");
        assertThat(read.auth().projectName()).isEqualTo("etcd");
    }

    @ParameterizedTest
    @CsvSource({
        "http://127.0.0.1:8080/auth/v1.0, test, tester, test:tester",
        "http://127.0.0.1:8080/auth/v1.0/, '', test:tester, test:tester",
        "https://swift.example/v1.0, acct, acct:user, acct:user"
    })
    void anAuthUrlEndingInV10IsTempauth(String url, String tenant, String user, String expected) throws IOException {
        Map<String, String> keys = new HashMap<>(Map.of("authURL", url, "username", user, "password", "k"));
        if (!tenant.isEmpty()) {
            keys.put("tenantName", tenant);
        }
        SwiftCredentials read = SwiftCredentialsReader.read(dirSecret(keys));

        assertThat(read.method()).isEqualTo(SwiftCredentials.Method.TEMPAUTH_V1);
        assertThat(read.tempauthUser()).isEqualTo(expected);
        assertThat(read.describe()).startsWith("tempauth v1 user " + expected).doesNotContain("=k");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "OS_CLOUD=mycloud | does not read clouds.yaml",
                "OS_AUTH_URL=https://k.example:5000/v2.0,OS_USERNAME=u,OS_PASSWORD=p | Keystone v2",
                "OS_AUTH_URL=" + AUTH + ",OS_IDENTITY_API_VERSION=2,OS_USERNAME=u,OS_PASSWORD=p | Keystone v2",
                "OS_AUTH_URL=" + AUTH + ",OS_TOKEN=t | without a project or domain to scope it to",
                "OS_AUTH_URL=not a url,OS_USERNAME=u,OS_PASSWORD=p | authURL is not a URL",
                "OS_USERNAME=u | no Swift credentials found; looked in the file named by OPENSTACK_APPLICATION_CREDENTIALS_JSON"
            })
    void whatEtcdbrctlCannotUseIsAUsageError(String pairs, String message) {
        Map<String, String> env = new HashMap<>();
        for (String pair : pairs.split(",")) {
            env.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
        }
        assertThatThrownBy(() -> SwiftCredentialsReader.read(env)).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
            assertThat(e.getMessage()).contains(message);
        });
    }

    private Map<String, String> dirSecret(Map<String, String> keys) throws IOException {
        for (Map.Entry<String, String> key : keys.entrySet()) {
            Files.writeString(dir.resolve(key.getKey()), key.getValue());
        }
        return Map.of("OPENSTACK_APPLICATION_CREDENTIALS", dir.toString());
    }
}
