package io.etcdworkers.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AwsCredentialFileReaderTest {
    private static final String SECRET = "s3cr3t-value-never-printed";

    @TempDir
    Path dir;

    @Test
    void readsOneFilePerKeyAndStripsTrailingNewlines() throws IOException {
        files(Map.of(
                "accessKeyID",
                "AKID\n",
                "secretAccessKey",
                SECRET + "\n",
                "region",
                "eu-west-1\n",
                "endpoint",
                "http://minio:9000",
                "s3ForcePathStyle",
                "true",
                "insecureSkipVerify",
                "F",
                "trustedCaCert",
                "-----BEGIN CERTIFICATE-----",
                "sseCustomerKey",
                "k".repeat(32),
                "sseCustomerAlgorithm",
                "AES256",
                "requestChecksumCalculation",
                "WHEN_REQUIRED"));

        AwsCredentialFile f = AwsCredentialFileReader.readDirectory(dir);

        assertThat(f.accessKeyId()).contains("AKID");
        assertThat(f.secretAccessKey()).contains(SECRET);
        assertThat(f.region()).contains("eu-west-1");
        assertThat(f.endpoint()).contains("http://minio:9000");
        assertThat(f.s3ForcePathStyle()).contains(true);
        assertThat(f.insecureSkipVerify()).contains(false);
        assertThat(f.trustedCaCert()).contains("-----BEGIN CERTIFICATE-----");
        assertThat(f.sseCustomerKey()).contains("k".repeat(32));
        assertThat(f.sseCustomerAlgorithm()).contains("AES256");
        assertThat(f.requestChecksumCalculation()).contains("WHEN_REQUIRED");
        assertThat(f.responseChecksumValidation()).isEmpty();
        assertThat(f.isWebIdentity()).isFalse();
        assertThat(f.toString())
                .doesNotContain(SECRET)
                .doesNotContain("k".repeat(32))
                .contains("region=eu-west-1");
    }

    @Test
    void readsAWebIdentityFromRoleArnAndTokenFile() throws IOException {
        files(Map.of("roleARN", "arn:aws:iam::123456789012:role/etcd", "token", "jwt", "region", "eu-west-1"));

        AwsCredentialFile f = AwsCredentialFileReader.readDirectory(dir);

        assertThat(f.isWebIdentity()).isTrue();
        assertThat(f.roleArn()).contains("arn:aws:iam::123456789012:role/etcd");
        assertThat(f.tokenPath()).contains(dir.resolve("token"));
    }

    @Test
    void prefersAJsonFileInTheDirectory() throws IOException {
        files(Map.of(
                "accessKeyID",
                "FROM-FILE",
                "secretAccessKey",
                "x",
                "region",
                "r",
                "secret.json",
                "{\"accessKeyID\":\"FROM-JSON\",\"secretAccessKey\":\"y\",\"region\":\"eu-central-1\"}"));

        AwsCredentialFile f = AwsCredentialFileReader.readDirectory(dir);

        assertThat(f.accessKeyId()).contains("FROM-JSON");
        assertThat(f.source()).isEqualTo(dir.resolve("secret.json"));
    }

    @Test
    void readsJsonWithBooleansAsJsonOrStringsAndIgnoresUnknownKeys() throws IOException {
        Path json = Files.writeString(
                dir.resolve("creds.json"),
                "{\"accessKeyID\":\"A\",\"secretAccessKey\":\""
                        + SECRET
                        + "\",\"region\":\"us-east-1\",\"s3ForcePathStyle\":true,\"insecureSkipVerify\":\"false\","
                        + "\"bucketName\":\"b\",\"roleARN\":\"\",\"tokenPath\":\"/var/run/token\"}");

        AwsCredentialFile f = AwsCredentialFileReader.readJson(json);

        assertThat(f.s3ForcePathStyle()).contains(true);
        assertThat(f.insecureSkipVerify()).contains(false);
        assertThat(f.roleArn()).as("empty strings count as absent").isEmpty();
        assertThat(f.tokenPath()).contains(Path.of("/var/run/token"));
        assertThat(f.isWebIdentity()).isFalse();
    }

    static Stream<Arguments> badDirectories() {
        return Stream.of(
                Arguments.of(
                        "no secret",
                        Map.of("accessKeyID", "A", "region", "r"),
                        "either accessKeyID and secretAccessKey, or roleARN and token"),
                Arguments.of(
                        "role without token",
                        Map.of("roleARN", "arn", "region", "r"),
                        "either accessKeyID and secretAccessKey, or roleARN and token"),
                Arguments.of(
                        "sse key without algorithm",
                        Map.of("accessKeyID", "A", "secretAccessKey", SECRET, "sseCustomerKey", SECRET),
                        "both sseCustomerKey and sseCustomerAlgorithm"),
                Arguments.of(
                        "bad boolean",
                        Map.of("accessKeyID", "A", "secretAccessKey", SECRET, "s3ForcePathStyle", "yes"),
                        "s3ForcePathStyle must be true or false"),
                Arguments.of(
                        "bad checksum mode",
                        Map.of("accessKeyID", "A", "secretAccessKey", SECRET, "responseChecksumValidation", "always"),
                        "responseChecksumValidation must be"),
                Arguments.of("empty", Map.of(), "either accessKeyID"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badDirectories")
    void rejectsIncompleteOrMalformedDirectories(String name, Map<String, String> content, String message)
            throws IOException {
        files(content);

        assertThatThrownBy(() -> AwsCredentialFileReader.readDirectory(dir))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                    assertThat(e.getMessage()).contains(dir.toString(), message).doesNotContain(SECRET);
                });
    }

    static Stream<Arguments> badJson() {
        return Stream.of(
                Arguments.of("{\"accessKeyID\":\"A\",\"secretAccessKey\":\"" + SECRET + "\"", "not valid JSON"),
                Arguments.of("[\"" + SECRET + "\"]", "must hold a JSON object"),
                Arguments.of(
                        "{\"accessKeyID\":1,\"secretAccessKey\":\"" + SECRET + "\"}", "accessKeyID must be a string"),
                Arguments.of(
                        "{\"accessKeyID\":\"A\",\"secretAccessKey\":\"" + SECRET + "\",\"s3ForcePathStyle\":1}",
                        "s3ForcePathStyle must be true or false"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("badJson")
    void rejectsBadJsonWithoutQuotingIt(String content, String message) throws IOException {
        Path json = Files.writeString(dir.resolve("creds.json"), content);

        assertThatThrownBy(() -> AwsCredentialFileReader.readJson(json))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                    assertThat(e.getMessage())
                            .contains(json.toString(), message)
                            .doesNotContain(SECRET);
                    assertThat(e.getCause()).isNull();
                });
    }

    @Test
    void aMissingFileOrDirectoryIsAUsageError() {
        assertThatThrownBy(() -> AwsCredentialFileReader.readJson(dir.resolve("absent.json")))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.USAGE));
        assertThatThrownBy(() -> AwsCredentialFileReader.readDirectory(dir.resolve("absent")))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.getMessage()).contains("is not a directory"));
    }

    @Test
    void goStyleBooleansAreAccepted() throws IOException {
        for (var entry : new LinkedHashMap<>(
                        Map.of("1", true, "t", true, "True", true, "0", false, "f", false, "FALSE", false))
                .entrySet()) {
            files(Map.of("accessKeyID", "A", "secretAccessKey", "S", "s3ForcePathStyle", entry.getKey()));
            assertThat(AwsCredentialFileReader.readDirectory(dir).s3ForcePathStyle())
                    .as(entry.getKey())
                    .isEqualTo(Optional.of(entry.getValue()));
        }
    }

    private void files(Map<String, String> content) throws IOException {
        for (var e : content.entrySet()) {
            Files.writeString(dir.resolve(e.getKey()), e.getValue());
        }
    }
}
