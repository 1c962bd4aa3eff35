package io.etcdworkers.store.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.store.StoreRetry;
import io.etcdworkers.testsupport.AzuriteServer;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may use a container: etcd-druid's Secret layouts work against a real Azure Blob server
 * (Azurite), and a wrong key or a missing container fail with exit 21, naming container and
 * endpoint, never the key.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class AzureStoreAccessIT {
    private static final String CONTAINER = "backups";
    /** A well-formed key of the right account that Azurite does not accept. */
    private static final String WRONG_KEY = Base64.getEncoder()
            .encodeToString("wrong-key-do-not-print-7f3a9c-0123456789abcdef0123456789abcdef".getBytes());
    /** Two quick attempts, as the store tests' (AzureBlobStoreIT): a refusal must not wait on backoff. */
    private static final StoreRetry FAST_RETRY =
            new StoreRetry(2, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofSeconds(10));

    @TempDir
    static Path serverDir;

    static AzuriteServer azurite;

    @TempDir
    Path secretDir;

    @BeforeAll
    static void startServer() {
        azurite = AzuriteServer.start(serverDir);
        azurite.createContainer(CONTAINER);
    }

    @AfterAll
    static void stopServer() {
        if (azurite != null) {
            azurite.close();
        }
    }

    @Test
    void credentialsFromAOneFilePerKeyDirectoryWork() throws IOException {
        write("storageAccount", AzuriteServer.ACCOUNT + "\n");
        write("storageKey", AzuriteServer.KEY + "\n");

        assertRoundTrip(
                Map.of("AZURE_APPLICATION_CREDENTIALS", secretDir.toString(), "STORAGE_CONTAINER", CONTAINER),
                "dir/object");
    }

    @Test
    void credentialsFromAJsonFileWorkAndTheEndpointFlagWinsOverTheDomain() throws IOException {
        // Nothing answers at this domain: the store only works if the flag replaced it.
        Path json = write(
                "secret.json",
                "{\"storageAccount\":\"" + AzuriteServer.ACCOUNT + "\",\"storageKey\":\"" + AzuriteServer.KEY
                        + "\",\"domain\":\"127.0.0.1:1\",\"bucketName\":\"ignored\"}");

        assertRoundTrip(
                Map.of("AZURE_APPLICATION_CREDENTIALS_JSON", json.toString(), "STORAGE_CONTAINER", CONTAINER),
                "json/object");
    }

    @Test
    void aWrongKeyIsStoreNotFoundNamingContainerAndEndpointButNotTheKey() {
        try (AzureBlobStore store = new AzureBlobStore(config(CONTAINER, WRONG_KEY))) {
            for (Runnable call :
                    new Runnable[] {() -> store.list("etcd/"), () -> store.open("etcd/x"), () -> commitSomething(store)
                    }) {
                assertThatThrownBy(call::run).isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.STORE_NOT_FOUND);
                    assertThat(e.getMessage())
                            .contains(
                                    "abs container \"" + CONTAINER + "\"",
                                    azurite.accountUrl().toString(),
                                    "access denied",
                                    "HTTP 403")
                            .doesNotContain(WRONG_KEY);
                    assertThat(causeChainText(e)).doesNotContain(WRONG_KEY);
                });
            }
        }
    }

    @Test
    void aMissingContainerIsStoreNotFoundSayingSo() {
        try (AzureBlobStore store = new AzureBlobStore(config("no-such-container", AzuriteServer.KEY))) {
            for (Runnable call :
                    new Runnable[] {() -> store.list("etcd/"), () -> store.open("etcd/x"), () -> commitSomething(store)
                    }) {
                assertThatThrownBy(call::run).isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.STORE_NOT_FOUND);
                    assertThat(e.getMessage())
                            .contains(
                                    "\"no-such-container\"",
                                    azurite.accountUrl().toString(),
                                    "container does not exist",
                                    "ContainerNotFound");
                });
            }
        }
    }

    @Test
    void theWorkerExitsWith21OnAWrongKeyAndAMissingContainerWithoutPrintingTheKey() {
        for (String[] c : new String[][] {
            {WRONG_KEY, CONTAINER, "access denied"},
            {AzuriteServer.KEY, "no-such-container", "container does not exist"}
        }) {
            Map<String, String> env = AzuriteServer.env(c[0], secretDir.resolve(c[1]));

            CommandRun run = CommandRun.run(
                    WorkerContext::new,
                    RestoreWorkerCommand::run,
                    env,
                    secretDir,
                    "verify-backup",
                    "--storage-provider",
                    "azure",
                    "--store-container",
                    c[1],
                    "--store-prefix",
                    "etcd-main",
                    "--store-endpoint-override",
                    azurite.accountUrl().toString());

            assertThat(run.exitCode()).as(run.stderr()).isEqualTo(21);
            JsonNode result = run.result();
            assertThat(result.get("storageProvider").asText()).isEqualTo("ABS");
            assertThat(result.get("errorCode").asText()).isEqualTo("STORE_NOT_FOUND");
            assertThat(result.get("error").asText())
                    .contains("\"" + c[1] + "\"", azurite.accountUrl().toString(), c[2]);
            assertThat(run.stdout() + run.stderr()).doesNotContain(WRONG_KEY).doesNotContain(AzuriteServer.KEY);
        }
    }

    private static AzureStoreConfig config(String container, String key) {
        return new AzureStoreConfig(
                container,
                URI.create(azurite.accountUrl() + "/" + container),
                AzuriteServer.ACCOUNT,
                key,
                FAST_RETRY,
                AzureStoreConfig.DEFAULT_BLOCK_SIZE);
    }

    private static void commitSomething(ObjectStore store) {
        try (ObjectWriter writer = store.create("etcd/new")) {
            writer.out().write(1);
            writer.commit();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void assertRoundTrip(Map<String, String> env, String key) throws IOException {
        AzureStoreConfig config = new AzureStoreConfigFactory(env)
                .create(
                        Optional.empty(),
                        Optional.of(URI.create(azurite.accountUrl().toString())));
        assertThat(config.toString()).doesNotContain(AzuriteServer.KEY);
        try (AzureBlobStore store = new AzureBlobStore(config)) {
            try (ObjectWriter writer = store.create(key)) {
                writer.out().write(key.getBytes());
                writer.commit();
            }
            assertThat(store.list(key)).extracting(ObjectInfo::key).containsExactly(key);
            try (InputStream in = store.open(key)) {
                assertThat(in.readAllBytes()).isEqualTo(key.getBytes());
            }
        }
    }

    private static String causeChainText(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            text.append(t).append('\n');
        }
        return text.toString();
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(secretDir.resolve(name), content);
    }
}
