package io.etcdworkers.store.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.gcs.GcsCredentials.Kind;
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

/**
 * Where a GCS store's endpoint and identity come from, as etcdbrctl v0.41 (and the etcdbrctl
 * versions that read {@code GOOGLE_STORAGE_API_ENDPOINT}) decide: the flag over the Secret's
 * {@code storageAPIEndpoint} over the variable over the Go SDK's {@code STORAGE_EMULATOR_HOST};
 * nothing sent to an http endpoint; the credentials file, else the SDK's ambient credentials.
 * Nothing here loads credentials or sends a request.
 */
class GcsStoreConfigFactoryTest {
    @TempDir
    Path dir;

    @Test
    void etcdDruidsSecretMountedAtVarGcpIsReadAsIs() throws IOException {
        Path secret = druidSecret(Optional.empty());

        GcsStoreConfig config = create(Map.of("GOOGLE_APPLICATION_CREDENTIALS", secret.toString()), "backups", null);

        assertThat(config.bucket()).isEqualTo("backups");
        assertThat(config.endpoint()).isEqualTo(URI.create("https://storage.googleapis.com"));
        assertThat(config.credentials().kind()).isEqualTo(Kind.FILE);
        assertThat(config.credentials().file().orElseThrow().projectId()).isEqualTo("my-project-1");
        assertThat(config.credentials().file().orElseThrow().source()).isEqualTo(secret);
    }

    @Test
    void theSecretsStorageApiEndpointIsTheEndpointAndHttpsKeepsTheCredentials() throws IOException {
        Path secret = druidSecret(Optional.of("https://storage.europe-west3.rep.googleapis.com/storage/v1/\n"));

        GcsStoreConfig config = create(Map.of("GOOGLE_APPLICATION_CREDENTIALS", secret.toString()), "b", null);

        assertThat(config.endpoint()).isEqualTo(URI.create("https://storage.europe-west3.rep.googleapis.com"));
        assertThat(config.credentials().kind()).isEqualTo(Kind.FILE);
    }

    @Test
    void anHttpEndpointIsAnEmulatorAndGetsNoCredentialsThoughTheFileIsStillChecked() throws IOException {
        Path secret = druidSecret(Optional.of("http://fake-gcs.default:8000/storage/v1/"));

        GcsStoreConfig config = create(Map.of("GOOGLE_APPLICATION_CREDENTIALS", secret.toString()), "b", null);

        assertThat(config.endpoint()).isEqualTo(URI.create("http://fake-gcs.default:8000"));
        assertThat(config.credentials().kind()).isEqualTo(Kind.ANONYMOUS);

        Files.writeString(secret, "{\"type\":\"authorized_user\"}");
        assertThatThrownBy(() -> create(
                        Map.of("GOOGLE_APPLICATION_CREDENTIALS", secret.toString()), "b", "http://127.0.0.1:9199"))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.USAGE));
    }

    @Test
    void theFlagWinsOverTheSecretAndTheVariables() throws IOException {
        Path secret = druidSecret(Optional.of("https://from-the-secret.example/storage/v1/"));
        Map<String, String> env = Map.of(
                "GOOGLE_APPLICATION_CREDENTIALS",
                secret.toString(),
                "GOOGLE_STORAGE_API_ENDPOINT",
                "https://from-the-variable.example",
                "STORAGE_EMULATOR_HOST",
                "emu:1");

        assertThat(create(env, "b", "http://127.0.0.1:9199/").endpoint())
                .isEqualTo(URI.create("http://127.0.0.1:9199"));
        assertThat(create(env, "b", null).endpoint()).isEqualTo(URI.create("https://from-the-secret.example"));
    }

    @Test
    void theVariableEtcdDruidSetsFromTheSameSecretKeyIsReadWhenNoFileIs() throws IOException {
        Path secret = druidSecret(Optional.empty());
        Map<String, String> env = Map.of(
                "GOOGLE_APPLICATION_CREDENTIALS",
                secret.toString(),
                "GOOGLE_STORAGE_API_ENDPOINT",
                " https://private.googleapis.com/storage/v1 ",
                "STORAGE_EMULATOR_HOST",
                "emu:1");

        GcsStoreConfig config = create(env, "b", null);

        assertThat(config.endpoint()).isEqualTo(URI.create("https://private.googleapis.com"));
        assertThat(config.credentials().kind()).isEqualTo(Kind.FILE);
    }

    @ParameterizedTest
    @CsvSource({
        "127.0.0.1:9023, http://127.0.0.1:9023",
        "http://localhost:8000/storage/v1/, http://localhost:8000",
        "https://gcs.test:4443, https://gcs.test:4443"
    })
    void theGoSdksEmulatorHostIsTheLastEndpointAndSendsNothing(String value, String endpoint) throws IOException {
        Map<String, String> env = new HashMap<>(Map.of("STORAGE_EMULATOR_HOST", value));
        env.put("GOOGLE_APPLICATION_CREDENTIALS", druidSecret(Optional.empty()).toString());

        GcsStoreConfig config = create(env, "b", null);

        assertThat(config.endpoint()).isEqualTo(URI.create(endpoint));
        assertThat(config.credentials().kind()).isEqualTo(Kind.ANONYMOUS);
    }

    @Test
    void withoutACredentialsFileTheSdksAmbientCredentialsAreUsed() {
        GcsStoreConfig config = create(Map.of("STORAGE_CONTAINER", "from-env"), null, null);

        assertThat(config.bucket()).isEqualTo("from-env");
        assertThat(config.credentials().kind()).isEqualTo(Kind.AMBIENT);
        assertThat(config.credentials().describe()).contains("application default credentials");
        assertThat(config.endpoint()).isEqualTo(URI.create("https://storage.googleapis.com"));
    }

    @Test
    void aMissingBucketOrAnEndpointThatIsNoUrlIsAUsageError() {
        assertThatThrownBy(() -> create(Map.of(), null, null)).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
            assertThat(e.getMessage()).contains("no GCS bucket", "STORAGE_CONTAINER");
        });
        assertThatThrownBy(() -> create(Map.of("GOOGLE_STORAGE_API_ENDPOINT", "ftp://x"), "b", null))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                    assertThat(e.getMessage())
                            .contains("the GCS endpoint from GOOGLE_STORAGE_API_ENDPOINT is not a URL");
                });
        assertThatThrownBy(() -> create(Map.of("STORAGE_EMULATOR_HOST", "h:1?x=y"), "b", null))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.USAGE));
    }

    @ParameterizedTest
    @CsvSource({
        "https://storage.googleapis.com/storage/v1/, https://storage.googleapis.com",
        "https://storage.googleapis.com/, https://storage.googleapis.com",
        "http://127.0.0.1:9199, http://127.0.0.1:9199",
        "https://proxy.example/gcs/storage/v1, https://proxy.example/gcs",
        "HTTP://Host:1, HTTP://Host:1"
    })
    void anEndpointInTheGoSdksFormLosesItsApiPath(String given, String expected) {
        assertThat(GcsStoreConfigFactory.normalize(given, "test")).isEqualTo(URI.create(expected));
    }

    /** etcd-druid's Secret, mounted: {@code serviceaccount.json} and maybe {@code storageAPIEndpoint}. */
    private Path druidSecret(Optional<String> endpoint) throws IOException {
        Path gcp = Files.createDirectories(dir.resolve("var/.gcp"));
        Path key = Files.writeString(
                gcp.resolve("serviceaccount.json"), GcsCredentialFileReaderTest.serviceAccount("my-project-1", ""));
        if (endpoint.isPresent()) {
            Files.writeString(gcp.resolve("storageAPIEndpoint"), endpoint.get());
        }
        return key;
    }

    private static GcsStoreConfig create(Map<String, String> env, String container, String override) {
        return new GcsStoreConfigFactory(env)
                .create(
                        Optional.ofNullable(container),
                        Optional.ofNullable(override).map(URI::create));
    }
}
