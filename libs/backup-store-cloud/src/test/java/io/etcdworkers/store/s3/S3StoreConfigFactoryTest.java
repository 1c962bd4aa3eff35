package io.etcdworkers.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.auth.StsWebIdentityTokenFileCredentialsProvider;

/** How the etcdbrctl conventions turn into an {@link S3StoreConfig}; no request is ever sent. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class S3StoreConfigFactoryTest {
    private static final String SECRET = "s3cr3t-value-never-printed";

    @TempDir
    Path dir;

    @Test
    void takesBucketFromTheFlagElseStorageContainer() throws IOException {
        Map<String, String> env = env(staticSecret(), Map.of("STORAGE_CONTAINER", "from-env"));

        assertThat(factory(env)
                        .create(Optional.of("from-flag"), Optional.empty())
                        .bucket())
                .isEqualTo("from-flag");
        assertThat(factory(env).create(Optional.empty(), Optional.empty()).bucket())
                .isEqualTo("from-env");
        assertThatThrownBy(() -> factory(Map.of("AWS_REGION", "r")).create(Optional.empty(), Optional.empty()))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                    assertThat(e.getMessage()).contains("STORAGE_CONTAINER");
                });
    }

    @Test
    void takesSettingsFromTheCredentialsDirectory() throws IOException {
        Path secret = staticSecret();
        Files.writeString(secret.resolve("endpoint"), "http://127.0.0.1:9000");
        Files.writeString(secret.resolve("s3ForcePathStyle"), "true");
        Files.writeString(secret.resolve("sseCustomerKey"), "k123456789012345678901234567890k");
        Files.writeString(secret.resolve("sseCustomerAlgorithm"), "AES256");
        Files.writeString(secret.resolve("requestChecksumCalculation"), "when_required");
        Files.writeString(secret.resolve("responseChecksumValidation"), "when_required");
        Files.writeString(secret.resolve("insecureSkipVerify"), "true");

        S3StoreConfig config =
                factory(env(secret, Map.of("AWS_REGION", "us-west-2"))).create(Optional.of("b"), Optional.empty());

        assertThat(config.region()).as("the file's region beats AWS_REGION").isEqualTo(Region.EU_WEST_1);
        assertThat(config.endpointOverride()).contains(URI.create("http://127.0.0.1:9000"));
        assertThat(config.forcePathStyle()).isTrue();
        assertThat(config.credentials()).isInstanceOf(StaticCredentialsProvider.class);
        assertThat(config.credentials().resolveCredentials().secretAccessKey()).isEqualTo(SECRET);
        // Expected values computed with openssl: base64 of the raw key, and of its MD5.
        assertThat(config.sseCustomerKey())
                .hasValue(new SseCustomerKey(
                        "AES256", "azEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDU2Nzg5MGs=", "wcJhBJpT0JjMgeYsgpXwfA=="));
        assertThat(config.requestChecksums()).isEqualTo(RequestChecksumCalculation.WHEN_REQUIRED);
        assertThat(config.responseChecksums()).isEqualTo(ResponseChecksumValidation.WHEN_REQUIRED);
        assertThat(config.tls().insecureSkipVerify()).isTrue();
        assertThat(config.partSize()).isEqualTo(S3StoreConfig.DEFAULT_PART_SIZE);
        assertThat(config.toString())
                .doesNotContain(
                        SECRET, "k123456789012345678901234567890k", "azEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDU2Nzg5MGs=");
    }

    @Test
    void theEndpointFlagWinsOverTheFile() throws IOException {
        Path secret = staticSecret();
        Files.writeString(secret.resolve("endpoint"), "http://127.0.0.1:9000");

        S3StoreConfig config = factory(env(secret, Map.of()))
                .create(Optional.of("b"), Optional.of(URI.create("http://127.0.0.1:7000")));

        assertThat(config.endpointOverride()).contains(URI.create("http://127.0.0.1:7000"));
    }

    @Test
    void aRelativeEndpointInTheFileIsAUsageError() throws IOException {
        Path secret = staticSecret();
        Files.writeString(secret.resolve("endpoint"), "minio:9000/x");

        assertThatThrownBy(() -> factory(env(secret, Map.of())).create(Optional.of("b"), Optional.empty()))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                    assertThat(e.getMessage()).contains("minio:9000/x", "absolute URL");
                });
    }

    @Test
    void theJsonVariableWinsOverTheDirectoryVariable() throws IOException {
        Path json = Files.writeString(
                dir.resolve("creds.json"),
                "{\"accessKeyID\":\"JSON\",\"secretAccessKey\":\"x\",\"region\":\"ap-south-1\"}");
        Map<String, String> env = env(staticSecret(), Map.of("AWS_APPLICATION_CREDENTIALS_JSON", json.toString()));

        S3StoreConfig config = factory(env).create(Optional.of("b"), Optional.empty());

        assertThat(config.region()).isEqualTo(Region.AP_SOUTH_1);
        assertThat(config.credentials().resolveCredentials().accessKeyId()).isEqualTo("JSON");
    }

    @Test
    void regionFallsBackToAwsRegionThenTheSdkChainThenFails() {
        Map<String, String> keys = Map.of("AWS_ACCESS_KEY_ID", "A", "AWS_SECRET_ACCESS_KEY", SECRET);
        Map<String, String> withRegion = new HashMap<>(keys);
        withRegion.put("AWS_REGION", "eu-north-1");

        assertThat(factory(withRegion)
                        .create(Optional.of("b"), Optional.empty())
                        .region())
                .isEqualTo(Region.EU_NORTH_1);
        assertThat(new S3StoreConfigFactory(keys, () -> Optional.of(Region.SA_EAST_1))
                        .create(Optional.of("b"), Optional.empty())
                        .region())
                .isEqualTo(Region.SA_EAST_1);
        assertThatThrownBy(() -> factory(keys).create(Optional.of("b"), Optional.empty()))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                    assertThat(e.getMessage())
                            .contains("no AWS region", "\"b\"")
                            .doesNotContain(SECRET);
                });
    }

    @Test
    void withoutAFileTakesKeysFromTheInjectedEnvironmentElseTheDefaultChain() {
        S3StoreConfig fromEnv = factory(Map.of(
                        "AWS_REGION",
                        "eu-west-1",
                        "AWS_ACCESS_KEY_ID",
                        "A",
                        "AWS_SECRET_ACCESS_KEY",
                        SECRET,
                        "AWS_SESSION_TOKEN",
                        "T"))
                .create(Optional.of("b"), Optional.empty());
        assertThat(fromEnv.credentials().resolveCredentials())
                .isInstanceOfSatisfying(
                        AwsSessionCredentials.class,
                        c -> assertThat(c.sessionToken()).isEqualTo("T"));
        assertThat(fromEnv.endpointOverride()).isEmpty();
        assertThat(fromEnv.forcePathStyle()).isFalse();

        S3StoreConfig chain = factory(Map.of("AWS_REGION", "eu-west-1")).create(Optional.of("b"), Optional.empty());
        // Only its type is checked: resolving it could reach for instance metadata.
        assertThat(chain.credentials()).isInstanceOf(CredentialsSearch.class);
    }

    @Test
    void aRoleArnAndTokenMeanAWebIdentity() throws IOException {
        Files.writeString(dir.resolve("roleARN"), "arn:aws:iam::123456789012:role/etcd-backup");
        Files.writeString(dir.resolve("token"), "eyJhbGciOi.jwt.token");
        Files.writeString(dir.resolve("region"), "eu-west-1");

        S3StoreConfig config = factory(env(dir, Map.of())).create(Optional.of("b"), Optional.empty());

        // Only built, never resolved: resolving would call AWS STS.
        assertThat(config.credentials()).isInstanceOf(StsWebIdentityTokenFileCredentialsProvider.class);
        ((StsWebIdentityTokenFileCredentialsProvider) config.credentials()).close();
    }

    private Path staticSecret() throws IOException {
        Path secret = Files.createDirectories(dir.resolve("secret"));
        Files.writeString(secret.resolve("accessKeyID"), "AKID");
        Files.writeString(secret.resolve("secretAccessKey"), SECRET);
        Files.writeString(secret.resolve("region"), "eu-west-1");
        return secret;
    }

    private static Map<String, String> env(Path credentialsDir, Map<String, String> more) {
        Map<String, String> env = new HashMap<>(more);
        env.put("AWS_APPLICATION_CREDENTIALS", credentialsDir.toString());
        return env;
    }

    private static S3StoreConfigFactory factory(Map<String, String> env) {
        return new S3StoreConfigFactory(env, Optional::empty);
    }
}
