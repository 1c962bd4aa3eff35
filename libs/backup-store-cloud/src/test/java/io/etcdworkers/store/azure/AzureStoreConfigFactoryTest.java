package io.etcdworkers.store.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the ABS credentials and the container URL come from, as etcdbrctl v0.41's
 * {@code abs_snapstore.go} decides: the JSON file first, then the directory (its {@code *.json}
 * file, else one file per key); the endpoint override over the Secret's {@code domain}.
 */
class AzureStoreConfigFactoryTest {
    private static final String KEY = "c2VjcmV0LWtleS1kby1ub3QtcHJpbnQ=";
    private static final String OTHER_KEY = "b3RoZXIta2V5";

    @TempDir
    Path dir;

    @Test
    void oneFilePerKeyBuildsTheGlobalContainerUrl() throws IOException {
        Path secret = secretDir("storageAccount", "acct\n", "storageKey", KEY + "\n");

        AzureStoreConfig config = create(Map.of("AZURE_APPLICATION_CREDENTIALS", secret.toString()), "backups", null);

        assertThat(config.containerUrl()).isEqualTo(URI.create("https://acct.blob.core.windows.net/backups"));
        assertThat(config.storageAccount()).isEqualTo("acct");
        assertThat(config.storageKey()).isEqualTo(KEY);
        assertThat(config.toString()).doesNotContain(KEY);
    }

    @Test
    void theDeprecatedDomainIsStillHonouredAndTheOverrideWinsOverIt() throws IOException {
        Path secret = secretDir("storageAccount", "acct", "storageKey", KEY, "domain", "blob.core.chinacloudapi.cn");
        Map<String, String> env = Map.of("AZURE_APPLICATION_CREDENTIALS", secret.toString());

        assertThat(create(env, "c", null).containerUrl())
                .isEqualTo(URI.create("https://acct.blob.core.chinacloudapi.cn/c"));
        assertThat(create(env, "c", "http://127.0.0.1:10000/devstoreaccount1/").containerUrl())
                .isEqualTo(URI.create("http://127.0.0.1:10000/devstoreaccount1/c"));
    }

    @Test
    void aJsonFileInTheDirectoryWinsOverThePerKeyFiles() throws IOException {
        Path secret = secretDir(
                "storageAccount",
                "files",
                "storageKey",
                OTHER_KEY,
                "secret.json",
                "{\"storageAccount\":\"json\",\"storageKey\":\"" + KEY + "\",\"bucketName\":\"ignored\"}");

        AzureStoreConfig config = create(Map.of("AZURE_APPLICATION_CREDENTIALS", secret.toString()), "c", null);

        assertThat(config.storageAccount()).isEqualTo("json");
        assertThat(config.containerUrl().toString()).isEqualTo("https://json.blob.core.windows.net/c");
    }

    @Test
    void theJsonVariableWinsOverTheDirectoryAndTheContainerMayComeFromTheEnvironment() throws IOException {
        Path secret = secretDir("storageAccount", "files", "storageKey", OTHER_KEY);
        Path json = Files.writeString(
                dir.resolve("abs.json"),
                "{\"storageAccount\":\"fromjson\",\"storageKey\":\"" + KEY + "\",\"emulatorEnabled\":true}");

        AzureStoreConfig config = create(
                Map.of(
                        "AZURE_APPLICATION_CREDENTIALS",
                        secret.toString(),
                        "AZURE_APPLICATION_CREDENTIALS_JSON",
                        json.toString(),
                        "STORAGE_CONTAINER",
                        "fromenv"),
                null,
                null);

        assertThat(config.storageAccount()).isEqualTo("fromjson");
        assertThat(config.container()).isEqualTo("fromenv");
        assertThat(config.containerUrl().toString()).isEqualTo("https://fromjson.blob.core.windows.net/fromenv");
    }

    @Test
    void noCredentialsIsAUsageErrorNamingWhereItLooked() {
        assertThatThrownBy(() -> create(Map.of(), "c", null)).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
            assertThat(e.getMessage())
                    .contains(
                            "no ABS credentials found",
                            "AZURE_APPLICATION_CREDENTIALS_JSON",
                            "AZURE_APPLICATION_CREDENTIALS ");
        });
    }

    @Test
    void incompleteOrMalformedCredentialsAreUsageErrorsThatNeverQuoteTheKey() throws IOException {
        Path noKey = secretDir("storageAccount", "acct");
        assertUsage(Map.of("AZURE_APPLICATION_CREDENTIALS", noKey.toString()), "missing: storageKey");

        Path badJson = Files.writeString(dir.resolve("bad.json"), "{\"storageKey\":\"" + KEY + "\"");
        assertUsage(Map.of("AZURE_APPLICATION_CREDENTIALS_JSON", badJson.toString()), "is not valid JSON");

        Path notBase64 = Files.writeString(
                dir.resolve("nb.json"), "{\"storageAccount\":\"a\",\"storageKey\":\"not base64 " + KEY + "\"}");
        assertUsage(Map.of("AZURE_APPLICATION_CREDENTIALS_JSON", notBase64.toString()), "storageKey is not base64");

        assertUsage(
                Map.of("AZURE_APPLICATION_CREDENTIALS", dir.resolve("absent").toString()), "is not a directory");
    }

    @Test
    void noContainerIsAUsageError() throws IOException {
        Path secret = secretDir("storageAccount", "acct", "storageKey", KEY);
        assertThatThrownBy(() -> create(Map.of("AZURE_APPLICATION_CREDENTIALS", secret.toString()), " ", null))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                    assertThat(e.getMessage()).contains("no ABS container", "STORAGE_CONTAINER");
                });
    }

    private void assertUsage(Map<String, String> env, String message) {
        assertThatThrownBy(() -> create(env, "c", null)).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
            assertThat(e.getMessage()).contains("ABS credentials", message).doesNotContain(KEY);
        });
    }

    private static AzureStoreConfig create(Map<String, String> env, String container, String override) {
        return new AzureStoreConfigFactory(env)
                .create(
                        Optional.ofNullable(container),
                        Optional.ofNullable(override).map(URI::create));
    }

    private Path secretDir(String... namesAndValues) throws IOException {
        Path secret = Files.createDirectories(dir.resolve("secret-" + namesAndValues.length + "-" + System.nanoTime()));
        for (int i = 0; i < namesAndValues.length; i += 2) {
            Files.writeString(secret.resolve(namesAndValues[i]), namesAndValues[i + 1]);
        }
        return secret;
    }
}
