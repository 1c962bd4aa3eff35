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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;

/** Each provider's endpoint, addressing, region and upload rules, as etcdbrctl applies them. */
class S3CompatibleStoreConfigFactoryTest {
    private static final String SECRET = "do-not-print-b81d";

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({
        // as written in storageEndpoint -> endpoint, path-style (an IP address) or virtual-hosted (a name)
        "oss-cn-hangzhou.aliyuncs.com, http://oss-cn-hangzhou.aliyuncs.com, false",
        "https://oss-eu-central-1.aliyuncs.com, https://oss-eu-central-1.aliyuncs.com, false",
        "https://oss-eu-central-1.aliyuncs.com/ignored/path, https://oss-eu-central-1.aliyuncs.com, false",
        "http://127.0.0.1:9000, http://127.0.0.1:9000, true",
        "10.0.0.7, http://10.0.0.7, true",
        "'http://[::1]:9000', 'http://[::1]:9000', true",
        "http://10.0.0.7.nip.io:9000, http://10.0.0.7.nip.io:9000, false"
    })
    void ossReadsStorageEndpointAsItsSdkDoes(String storageEndpoint, String endpoint, boolean pathStyle)
            throws IOException {
        S3StoreConfig config = factory(oss(storageEndpoint)).oss(Optional.of("backups"), Optional.empty());

        assertThat(config.provider()).isEqualTo("OSS");
        assertThat(config.bucket()).isEqualTo("backups");
        assertThat(config.endpointOverride()).contains(URI.create(endpoint));
        assertThat(config.forcePathStyle()).isEqualTo(pathStyle);
        assertThat(config.region()).isEqualTo(Region.AWS_GLOBAL);
        // Alibaba: no aws-chunked bodies and no flexible checksums from AWS SDKs
        assertThat(config.chunkedEncoding()).isFalse();
        assertThat(config.requestChecksums()).isEqualTo(RequestChecksumCalculation.WHEN_REQUIRED);
        assertThat(config.responseChecksums()).isEqualTo(ResponseChecksumValidation.WHEN_REQUIRED);
        assertThat(config.credentials().resolveCredentials().secretAccessKey()).isEqualTo(SECRET);
        assertThat(config.toString()).doesNotContain(SECRET);
    }

    @Test
    void theEndpointFlagReplacesTheSecretsAndTheProviderRulesApply() throws IOException {
        S3StoreConfig config = factory(oss("oss-cn-hangzhou.aliyuncs.com"))
                .oss(Optional.of("b"), Optional.of(URI.create("https://s3.oss-cn-hangzhou.aliyuncs.com")));
        assertThat(config.endpointOverride()).contains(URI.create("https://s3.oss-cn-hangzhou.aliyuncs.com"));
        assertThat(config.forcePathStyle()).isFalse();

        S3StoreConfig ocs = factory(ocs("https://rgw.example:443", "true", "true"))
                .ocs(Optional.of("b"), Optional.of(URI.create("https://127.0.0.1:7480")));
        assertThat(ocs.endpointOverride()).contains(URI.create("http://127.0.0.1:7480"));
    }

    @ParameterizedTest
    @CsvSource({
        // endpoint, disableSSL, insecureSkipVerify -> endpoint used, trust-all
        "https://rgw.openshift-storage.svc:443, false, false, https://rgw.openshift-storage.svc:443, false",
        "https://rgw.openshift-storage.svc:443, false, true, https://rgw.openshift-storage.svc:443, true",
        "https://rgw.openshift-storage.svc/path, true, true, http://rgw.openshift-storage.svc/path, false",
        "http://127.0.0.1:7480, false, false, http://127.0.0.1:7480, false"
    })
    void ocsIsEtcdbrctlsGenericS3Store(
            String endpoint, String disableSsl, String insecure, String used, boolean trustAll) throws IOException {
        S3StoreConfig config = factory(ocs(endpoint, disableSsl, insecure)).ocs(Optional.of("b"), Optional.empty());

        assertThat(config.provider()).isEqualTo("OCS");
        assertThat(config.endpointOverride()).contains(URI.create(used));
        assertThat(config.forcePathStyle()).isTrue();
        assertThat(config.region()).isEqualTo(Region.of("eu-1"));
        assertThat(config.tls().insecureSkipVerify()).isEqualTo(trustAll);
        assertThat(config.chunkedEncoding()).isTrue();
        assertThat(config.requestChecksums()).isEqualTo(RequestChecksumCalculation.WHEN_REQUIRED);
    }

    @Test
    void ecsSignsForUsStandardWithPathStyle() {
        S3StoreConfig config = factory(Map.of(
                        "ECS_ENDPOINT",
                        "https://ecs.example:9021",
                        "ECS_ACCESS_KEY_ID",
                        "u",
                        "ECS_SECRET_ACCESS_KEY",
                        SECRET,
                        "ECS_DISABLE_SSL",
                        "true",
                        "STORAGE_CONTAINER",
                        "from-env"))
                .ecs(Optional.empty(), Optional.empty());

        assertThat(config.provider()).isEqualTo("ECS");
        assertThat(config.bucket()).isEqualTo("from-env");
        assertThat(config.region()).isEqualTo(Region.of("US-Standard"));
        assertThat(config.endpointOverride()).contains(URI.create("http://ecs.example:9021"));
        assertThat(config.forcePathStyle()).isTrue();
        assertThat(config.requestChecksums()).isEqualTo(RequestChecksumCalculation.WHEN_REQUIRED);
    }

    @ParameterizedTest
    @CsvSource({"rgw.example:7480", "ftp://rgw.example", "http://", "not a url"})
    void anEndpointThatIsNoHttpUrlIsAUsageErrorNamingProviderBucketAndEndpoint(String endpoint) throws IOException {
        assertThatThrownBy(() -> factory(ocs(endpoint, "false", "false")).ocs(Optional.of("etcd-b"), Optional.empty()))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                    assertThat(e.getMessage())
                            .contains(
                                    "OCS endpoint \"" + endpoint + "\"",
                                    "bucket \"etcd-b\"",
                                    "not an absolute http(s) URL")
                            .doesNotContain(SECRET);
                });
    }

    @Test
    void noBucketIsAUsageErrorNamingTheProvider() throws IOException {
        Map<String, String> env = oss("oss-cn-hangzhou.aliyuncs.com");
        assertThatThrownBy(() -> factory(env).oss(Optional.of(" "), Optional.empty()))
                .isInstanceOfSatisfying(
                        WorkerException.class,
                        e -> assertThat(e.getMessage()).contains("no OSS bucket", "STORAGE_CONTAINER"));
    }

    private static S3CompatibleStoreConfigFactory factory(Map<String, String> env) {
        return new S3CompatibleStoreConfigFactory(env);
    }

    private Map<String, String> oss(String storageEndpoint) throws IOException {
        Path secret = Files.createDirectories(dir.resolve("oss-" + System.nanoTime()));
        Files.writeString(secret.resolve("accessKeyID"), "id");
        Files.writeString(secret.resolve("accessKeySecret"), SECRET);
        Files.writeString(secret.resolve("storageEndpoint"), storageEndpoint);
        return Map.of("ALICLOUD_APPLICATION_CREDENTIALS", secret.toString());
    }

    private Map<String, String> ocs(String endpoint, String disableSsl, String insecure) throws IOException {
        Path secret = Files.createDirectories(dir.resolve("ocs-" + System.nanoTime()));
        Map<String, String> keys = new HashMap<>(Map.of(
                "accessKeyID",
                "id",
                "secretAccessKey",
                SECRET,
                "endpoint",
                endpoint,
                "region",
                "eu-1",
                "disableSSL",
                disableSsl,
                "insecureSkipVerify",
                insecure));
        for (Map.Entry<String, String> key : keys.entrySet()) {
            Files.writeString(secret.resolve(key.getKey()), key.getValue());
        }
        return Map.of("OPENSHIFT_APPLICATION_CREDENTIALS", secret.toString());
    }
}
