package io.etcdworkers.testsupport;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A real Azure Blob Storage server for tests: Azurite's {@code azurite-blob} (npm
 * {@code azurite@3}, installed by {@code .ci/azurite.sh}) as a child process on a free 127.0.0.1
 * port, in memory, with telemetry off, in a directory the test owns (its working directory and
 * HOME, so it writes nowhere else; Azurite refuses {@code --location} with in-memory storage).
 * Account {@link #ACCOUNT} with its published key {@link #KEY}.
 *
 * <p>Found in the system property {@code azurite.dir}, else {@code AZURITE_DIR}, else
 * {@code ~/.cache/etcd-workers/azurite} (the dir {@code .ci/azurite.sh} installs into). Missing,
 * {@link #start} fails when {@code CI=true} and skips the test class with a message otherwise.
 * {@link #close()} kills it and waits; a shutdown hook does the same if the test JVM dies first.
 */
public final class AzuriteServer implements AutoCloseable {
    /** Azurite's well-known development account. */
    public static final String ACCOUNT = "devstoreaccount1";
    /** Its published key (Azurite's README); not a secret. */
    public static final String KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final int START_ATTEMPTS = 3;

    private final ChildServer server;
    private final URI accountUrl;
    private BlobServiceClient client;

    private AzuriteServer(ChildServer server, URI accountUrl) {
        this.server = server;
        this.accountUrl = accountUrl;
    }

    /** Starts Azurite in {@code workDir} and waits until it answers; retries on another port if one was taken. */
    public static AzuriteServer start(Path workDir) {
        Path bin = binary();
        IllegalStateException failure = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            try {
                return startOnce(bin, workDir.resolve("azurite-" + attempt));
            } catch (IllegalStateException e) {
                failure = e;
            }
        }
        throw failure;
    }

    /** {@code http://127.0.0.1:PORT/devstoreaccount1}: what {@code --store-endpoint-override} is for ABS. */
    public URI accountUrl() {
        return accountUrl;
    }

    /** A client of the account with its key, owned by the server. */
    public synchronized BlobServiceClient client() {
        if (client == null) {
            client = new BlobServiceClientBuilder()
                    .endpoint(accountUrl.toString())
                    .credential(new StorageSharedKeyCredential(ACCOUNT, KEY))
                    .buildClient();
        }
        return client;
    }

    public BlobContainerClient createContainer(String name) {
        return client().createBlobContainer(name);
    }

    /** Uploads every object of a Local bucket's {@code v2/} as {@code <prefix>/v2/<name>}. */
    public void upload(String container, String prefix, Path localBucket) {
        BlobContainerClient target = client().getBlobContainerClient(container);
        try (Stream<Path> files = Files.list(localBucket.resolve("v2"))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                target.getBlobClient(prefix + "/v2/" + file.getFileName()).upload(BinaryData.fromFile(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes etcd-druid's JSON Secret form (with {@code key} as the storage key) and returns the
     * environment that points a worker at it.
     */
    public static Map<String, String> env(String key, Path dir) {
        Path credentials = dir.resolve("abs-credentials.json");
        try {
            Files.createDirectories(dir);
            Files.writeString(credentials, "{\"storageAccount\":\"" + ACCOUNT + "\",\"storageKey\":\"" + key + "\"}");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of("PATH", System.getenv("PATH"), "AZURE_APPLICATION_CREDENTIALS_JSON", credentials.toString());
    }

    @Override
    public synchronized void close() {
        server.close();
    }

    /** {@code azurite-blob} from the install dir; fails (CI) or skips (elsewhere) when it is not there. */
    static Path binary() {
        String configured = System.getProperty("azurite.dir");
        if (configured == null || configured.isBlank()) {
            configured = System.getenv("AZURITE_DIR");
        }
        Path dir = configured == null || configured.isBlank()
                ? Path.of(System.getProperty("user.home"), ".cache", "etcd-workers", "azurite")
                : Path.of(configured);
        Path bin = dir.resolve("node_modules").resolve(".bin").resolve("azurite-blob");
        if (!Files.isExecutable(bin)) {
            String message = "Azurite not found at " + bin + " (system property azurite.dir, AZURITE_DIR, or "
                    + "~/.cache/etcd-workers/azurite): run .ci/azurite.sh, which installs npm azurite@3 there";
            RequiredInCi.missing(message, "the ABS tests");
        }
        return bin;
    }

    private static AzuriteServer startOnce(Path bin, Path dir) {
        int port = ChildServer.freeLoopbackPort();
        URI accountUrl = URI.create("http://127.0.0.1:" + port + "/" + ACCOUNT);
        Path log = dir.resolve("azurite.log");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ProcessBuilder builder = new ProcessBuilder(
                        bin.toString(),
                        "--blobHost",
                        "127.0.0.1",
                        "--blobPort",
                        String.valueOf(port),
                        "--inMemoryPersistence",
                        "--extentMemoryLimit",
                        "1024",
                        "--skipApiVersionCheck",
                        "--disableTelemetry",
                        "--silent")
                .directory(dir.toFile());
        builder.environment().put("HOME", dir.toString());
        // Any HTTP answer counts (an unsigned request gets 403): the server is up.
        ChildServer server = ChildServer.start(
                "Azurite at " + accountUrl,
                builder,
                log,
                START_TIMEOUT,
                STOP_TIMEOUT,
                () -> ChildServer.get(accountUrl).isPresent());
        return new AzuriteServer(server, accountUrl);
    }
}
