package io.etcdworkers.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The OSS, OCS and ECS Secrets in every layout etcdbrctl reads: one file per key (how etcd-druid
 * mounts the Secret), a JSON file named by the {@code _JSON} variable, a JSON file inside the
 * mounted directory (which wins), and for ECS the variables etcd-druid sets.
 */
class S3CompatibleCredentialsReaderTest {
    private static final String SECRET = "do-not-print-4f1c9e";

    @TempDir
    Path dir;

    enum Layout {
        DIRECTORY,
        JSON_VARIABLE,
        JSON_IN_DIRECTORY
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void readsAnOssSecret(Layout layout) throws IOException {
        Map<String, String> env = layout(
                layout,
                "ALICLOUD_APPLICATION_CREDENTIALS",
                Map.of(
                        "accessKeyID",
                        "LTAI5t",
                        "accessKeySecret",
                        SECRET,
                        "storageEndpoint",
                        "oss-eu-central-1.aliyuncs.com",
                        "bucketName",
                        "ignored"));

        S3CompatibleCredentials c = new S3CompatibleCredentialsReader(env).oss();

        assertThat(c.provider()).isEqualTo("OSS");
        assertThat(c.accessKeyId()).isEqualTo("LTAI5t");
        assertThat(c.secretAccessKey()).isEqualTo(SECRET);
        assertThat(c.endpoint()).isEqualTo("oss-eu-central-1.aliyuncs.com");
        assertThat(c.region()).isEmpty();
        assertThat(c.disableSsl()).isFalse();
        assertThat(c.source()).startsWith(dir.toString());
        assertThat(c.toString()).doesNotContain(SECRET);
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void readsAnOcsSecret(Layout layout) throws IOException {
        Map<String, String> env = layout(
                layout,
                "OPENSHIFT_APPLICATION_CREDENTIALS",
                Map.of(
                        "accessKeyID",
                        "AK",
                        "secretAccessKey",
                        SECRET,
                        "endpoint",
                        "https://s3.openshift-storage.svc:443",
                        "region",
                        "noobaa",
                        "disableSSL",
                        "false",
                        "insecureSkipVerify",
                        "true"));

        S3CompatibleCredentials c = new S3CompatibleCredentialsReader(env).ocs();

        assertThat(c.provider()).isEqualTo("OCS");
        assertThat(c.endpoint()).isEqualTo("https://s3.openshift-storage.svc:443");
        assertThat(c.region()).contains("noobaa");
        assertThat(c.accessKeyId()).isEqualTo("AK");
        assertThat(c.secretAccessKey()).isEqualTo(SECRET);
        assertThat(c.disableSsl()).isFalse();
        assertThat(c.insecureSkipVerify()).isTrue();
        assertThat(c.toString()).doesNotContain(SECRET);
    }

    @Test
    void ocsBooleansAreOptionalAndMayBeJsonBooleans() throws IOException {
        Path json = Files.writeString(
                dir.resolve("ocs.json"),
                "{\"accessKeyID\":\"AK\",\"secretAccessKey\":\"" + SECRET
                        + "\",\"endpoint\":\"http://rgw:80\",\"region\":\"r\",\"disableSSL\":true}");

        S3CompatibleCredentials c = new S3CompatibleCredentialsReader(
                        Map.of("OPENSHIFT_APPLICATION_CREDENTIALS_JSON", json.toString()))
                .ocs();

        assertThat(c.disableSsl()).isTrue();
        assertThat(c.insecureSkipVerify()).isFalse();
    }

    @Test
    void readsEcsFromTheVariablesEtcdDruidSets() {
        S3CompatibleCredentials c = new S3CompatibleCredentialsReader(Map.of(
                        "ECS_ENDPOINT",
                        "https://ecs:9021",
                        "ECS_ACCESS_KEY_ID",
                        "user1",
                        "ECS_SECRET_ACCESS_KEY",
                        SECRET,
                        "ECS_DISABLE_SSL",
                        "True"))
                .ecs();

        assertThat(c.provider()).isEqualTo("ECS");
        assertThat(c.endpoint()).isEqualTo("https://ecs:9021");
        assertThat(c.accessKeyId()).isEqualTo("user1");
        assertThat(c.secretAccessKey()).isEqualTo(SECRET);
        assertThat(c.region()).isEmpty();
        assertThat(c.disableSsl()).isTrue();
        assertThat(c.insecureSkipVerify()).isFalse();
        assertThat(c.source()).contains("ECS_ENDPOINT").doesNotContain(SECRET);
    }

    @Test
    void anEcsBooleanThatIsNoneIsFalseAsForEtcdbrctl() {
        S3CompatibleCredentials c = new S3CompatibleCredentialsReader(Map.of(
                        "ECS_ENDPOINT",
                        "https://ecs:9021",
                        "ECS_ACCESS_KEY_ID",
                        "user1",
                        "ECS_SECRET_ACCESS_KEY",
                        SECRET,
                        "ECS_INSECURE_SKIP_VERIFY",
                        "yes"))
                .ecs();

        assertThat(c.insecureSkipVerify()).isFalse();
    }

    static Stream<Arguments> incomplete() {
        return Stream.of(
                Arguments.of(
                        "OSS",
                        "ALICLOUD_APPLICATION_CREDENTIALS",
                        Map.of("accessKeyID", "A", "accessKeySecret", SECRET),
                        "missing: storageEndpoint"),
                Arguments.of(
                        "OSS",
                        "ALICLOUD_APPLICATION_CREDENTIALS",
                        Map.of("storageEndpoint", "e"),
                        "missing: accessKeyID, accessKeySecret"),
                Arguments.of(
                        "OCS",
                        "OPENSHIFT_APPLICATION_CREDENTIALS",
                        Map.of("accessKeyID", "A", "secretAccessKey", SECRET, "endpoint", "http://e"),
                        "missing: region"),
                Arguments.of(
                        "OCS",
                        "OPENSHIFT_APPLICATION_CREDENTIALS",
                        Map.of(
                                "accessKeyID",
                                "A",
                                "secretAccessKey",
                                SECRET,
                                "endpoint",
                                "http://e",
                                "region",
                                "r",
                                "disableSSL",
                                "no"),
                        "key disableSSL must be true or false"));
    }

    @ParameterizedTest(name = "{0} {3}")
    @MethodSource("incomplete")
    void anIncompleteSecretIsAUsageErrorNamingTheProviderAndKeys(
            String provider, String variable, Map<String, String> keys, String message) throws IOException {
        for (Layout layout : Layout.values()) {
            Map<String, String> env = layout(layout, variable, keys);
            assertThatThrownBy(() -> read(provider, env))
                    .as("%s", layout)
                    .isInstanceOfSatisfying(WorkerException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                        assertThat(e.getMessage())
                                .contains(provider + " credentials " + dir, message)
                                .doesNotContain(SECRET);
                    });
        }
    }

    @Test
    void noSecretAtAllSaysWhereItLooked() {
        assertThatThrownBy(() -> new S3CompatibleCredentialsReader(Map.of()).oss())
                .isInstanceOfSatisfying(
                        WorkerException.class,
                        e -> assertThat(e.getMessage())
                                .contains(
                                        "no OSS credentials found",
                                        "ALICLOUD_APPLICATION_CREDENTIALS_JSON",
                                        "ALICLOUD_APPLICATION_CREDENTIALS (etcd-druid mounts"));
        assertThatThrownBy(() -> new S3CompatibleCredentialsReader(
                                Map.of("ECS_ENDPOINT", "https://e", "ECS_SECRET_ACCESS_KEY", SECRET))
                        .ecs())
                .isInstanceOfSatisfying(
                        WorkerException.class,
                        e -> assertThat(e.getMessage())
                                .contains("no ECS credentials", "missing: ECS_ACCESS_KEY_ID")
                                .doesNotContain(SECRET));
        assertThatThrownBy(() -> new S3CompatibleCredentialsReader(Map.of(
                                "OPENSHIFT_APPLICATION_CREDENTIALS",
                                dir.resolve("absent").toString()))
                        .ocs())
                .isInstanceOfSatisfying(
                        WorkerException.class,
                        e -> assertThat(e.getMessage()).contains("OCS credentials", "is not a directory"));
    }

    @Test
    void badJsonIsNotQuoted() throws IOException {
        Path json = Files.writeString(dir.resolve("oss.json"), "{\"accessKeySecret\":\"" + SECRET + "\"");

        assertThatThrownBy(() -> new S3CompatibleCredentialsReader(
                                Map.of("ALICLOUD_APPLICATION_CREDENTIALS_JSON", json.toString()))
                        .oss())
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.getMessage())
                            .contains("OSS credentials", "is not valid JSON")
                            .doesNotContain(SECRET);
                    assertThat(e.getCause()).isNull();
                });
    }

    private static S3CompatibleCredentials read(String provider, Map<String, String> env) {
        S3CompatibleCredentialsReader reader = new S3CompatibleCredentialsReader(env);
        return provider.equals("OSS") ? reader.oss() : reader.ocs();
    }

    /** Writes {@code keys} in {@code layout} under a fresh directory and returns the environment pointing at it. */
    private Map<String, String> layout(Layout layout, String dirVariable, Map<String, String> keys) throws IOException {
        Path secret = Files.createDirectories(dir.resolve(layout + "-" + System.nanoTime()));
        Map<String, String> env = new HashMap<>();
        switch (layout) {
            case DIRECTORY -> {
                for (Map.Entry<String, String> key : keys.entrySet()) {
                    // as a Secret volume shows them, with the trailing newline `echo` leaves
                    Files.writeString(secret.resolve(key.getKey()), key.getValue() + "\n");
                }
                env.put(dirVariable, secret.toString());
            }
            case JSON_VARIABLE ->
                env.put(
                        dirVariable + "_JSON",
                        Files.writeString(secret.resolve("secret.json"), json(keys))
                                .toString());
            case JSON_IN_DIRECTORY -> {
                Files.writeString(secret.resolve("a.json"), json(keys));
                // a per-key file beside it is not read: the JSON file wins
                Files.writeString(secret.resolve("accessKeyID"), "NOT-THIS-ONE");
                env.put(dirVariable, secret.toString());
            }
        }
        return env;
    }

    private static String json(Map<String, String> keys) {
        return keys.entrySet().stream()
                .map(e -> "\"" + e.getKey() + "\":\"" + e.getValue() + "\"")
                .collect(Collectors.joining(",", "{", "}"));
    }
}
