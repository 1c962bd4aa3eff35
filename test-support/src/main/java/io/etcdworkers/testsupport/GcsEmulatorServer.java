package io.etcdworkers.testsupport;

import com.google.cloud.NoCredentials;
import com.google.cloud.WriteChannel;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A server of the Google Cloud Storage JSON API for tests: firebase-tools' Cloud Storage emulator
 * (npm {@code firebase-tools@15.34.2}, installed by {@code .ci/gcs-emulator.sh}), started without
 * its CLI by this module's {@code gcs-emulator.js}, as a child process on a free 127.0.0.1 port,
 * in a directory the test owns (its working directory, HOME and TMPDIR: the emulator keeps its
 * blobs under TMPDIR).
 *
 * <p>What it does not do, so tests must not rely on it: it creates a bucket on the first request
 * that names one (no bucket is ever missing, and creating one explicitly answers 501); it
 * finalizes a resumable upload with its first chunk (open firebase-tools PRs #9047 and #10325),
 * so uploads must use a chunk size above the object's size ({@link #UPLOAD_CHUNK_SIZE}); it
 * takes request bodies up to 130 MB; it checks no credentials.
 *
 * <p>Found in the system property {@code gcs.emulator.dir} (the root pom sets it from
 * {@code GCS_EMULATOR_DIR}), else {@code GCS_EMULATOR_DIR}, else
 * {@code ~/.cache/etcd-workers/gcs-emulator}. Missing, {@link #start} fails when {@code CI=true}
 * and skips the test class with a message otherwise. {@link #close()} stops it and waits; a
 * shutdown hook does the same if the test JVM dies first.
 */
public final class GcsEmulatorServer implements AutoCloseable {
    /** 64 MiB: above every object the tests upload, so that the emulator sees one chunk only. */
    public static final int UPLOAD_CHUNK_SIZE = 64 * 1024 * 1024;

    private static final String PACKAGE = "firebase-tools";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final int START_ATTEMPTS = 3;

    private final ChildServer server;
    private final URI endpoint;
    private Storage client;

    private GcsEmulatorServer(ChildServer server, URI endpoint) {
        this.server = server;
        this.endpoint = endpoint;
    }

    /** Starts the emulator in {@code workDir} and waits until it answers; retries on another port if one was taken. */
    public static GcsEmulatorServer start(Path workDir) {
        Path packageDir = packageDir();
        IllegalStateException failure = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            try {
                return startOnce(packageDir, workDir.resolve("gcs-emulator-" + attempt));
            } catch (IllegalStateException e) {
                failure = e;
            }
        }
        throw failure;
    }

    /** {@code http://127.0.0.1:PORT}: the API root, what {@code --store-endpoint-override} is for GCS. */
    public URI endpoint() {
        return endpoint;
    }

    /** A client without credentials (the emulator checks none), owned by the server. */
    public synchronized Storage client() {
        if (client == null) {
            client = StorageOptions.http()
                    .setHost(endpoint.toString())
                    .setProjectId("etcd-workers-test")
                    .setCredentials(NoCredentials.getInstance())
                    .build()
                    .getService();
        }
        return client;
    }

    /** Uploads {@code bytes} as {@code bucket/key} (the bucket appears with it). */
    public void put(String bucket, String key, byte[] bytes) {
        // Through writer(), not create(): the emulator misreads the Java client's multipart uploads.
        try (WriteChannel writer =
                client().writer(BlobInfo.newBuilder(bucket, key).build())) {
            writer.setChunkSize(UPLOAD_CHUNK_SIZE);
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                writer.write(buffer);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Uploads every object of a Local bucket's {@code v2/} as {@code <prefix>/v2/<name>}. */
    public void upload(String bucket, String prefix, Path localBucket) {
        try (Stream<Path> files = Files.list(localBucket.resolve("v2"))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                put(bucket, prefix + "/v2/" + file.getFileName(), Files.readAllBytes(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes a service account key in the layout etcd-druid mounts ({@code <dir>/serviceaccount.json})
     * and returns the environment that points a worker at it. The key is a stand-in that passes
     * etcdbrctl's checks; an {@code http} endpoint sends no credentials, so it is never used.
     */
    public static Map<String, String> env(Path dir) {
        Path credentials = dir.resolve("serviceaccount.json");
        try {
            Files.createDirectories(dir);
            Files.writeString(
                    credentials,
                    "{\"type\":\"service_account\",\"project_id\":\"etcd-workers-test\","
                            + "\"private_key_id\":\"0\",\"private_key\":\"-----BEGIN PRIVATE KEY-----\\nnot-a-key\\n"
                            + "-----END PRIVATE KEY-----\\n\",\"client_email\":\"restore@etcd-workers-test.iam.gserviceaccount.com\","
                            + "\"client_id\":\"1\",\"token_uri\":\"https://oauth2.googleapis.com/token\"}");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of("PATH", System.getenv("PATH"), "GOOGLE_APPLICATION_CREDENTIALS", credentials.toString());
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            try {
                client.close();
            } catch (Exception e) {
                // An HTTP client of a server being stopped: nothing to report.
            }
        }
        server.close();
    }

    /** firebase-tools' package dir from the install dir; fails (CI) or skips (elsewhere) when it is not there. */
    static Path packageDir() {
        String configured = System.getProperty("gcs.emulator.dir");
        if (configured == null || configured.isBlank()) {
            configured = System.getenv("GCS_EMULATOR_DIR");
        }
        Path dir = configured == null || configured.isBlank()
                ? Path.of(System.getProperty("user.home"), ".cache", "etcd-workers", "gcs-emulator")
                : Path.of(configured);
        Path packageDir = dir.resolve("node_modules").resolve(PACKAGE);
        if (!Files.isRegularFile(packageDir.resolve("lib/emulator/storage/index.js"))) {
            String message = "firebase-tools' storage emulator not found in " + packageDir + " (system property "
                    + "gcs.emulator.dir, GCS_EMULATOR_DIR, or ~/.cache/etcd-workers/gcs-emulator): run "
                    + ".ci/gcs-emulator.sh, which installs npm firebase-tools@15.34.2 there";
            RequiredInCi.missing(message, "the GCS tests");
        }
        return packageDir;
    }

    private static GcsEmulatorServer startOnce(Path packageDir, Path dir) {
        int port = ChildServer.freeLoopbackPort();
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        Path launcher = dir.resolve("gcs-emulator.js");
        Path tmp = dir.resolve("tmp");
        try {
            Files.createDirectories(tmp);
            try (InputStream in = GcsEmulatorServer.class.getResourceAsStream("gcs-emulator.js")) {
                if (in == null) {
                    throw new IllegalStateException("gcs-emulator.js is missing from test-support's resources");
                }
                Files.copy(in, launcher, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ProcessBuilder builder = new ProcessBuilder(
                        "node", launcher.toString(), packageDir.toString(), String.valueOf(port))
                .directory(dir.toFile());
        builder.environment().put("HOME", dir.toString());
        builder.environment().put("TMPDIR", tmp.toString());
        // The GCS listing of an unknown bucket answers 200 (the emulator creates it): the server is up.
        URI probe = endpoint.resolve("/storage/v1/b/probe/o?maxResults=1");
        ChildServer server = ChildServer.start(
                "the GCS emulator at " + endpoint,
                builder,
                dir.resolve("emulator.log"),
                START_TIMEOUT,
                STOP_TIMEOUT,
                () -> ChildServer.get(probe).filter(a -> a.status() == 200).isPresent());
        return new GcsEmulatorServer(server, endpoint);
    }
}
