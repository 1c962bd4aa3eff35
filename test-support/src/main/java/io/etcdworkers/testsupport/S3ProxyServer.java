package io.etcdworkers.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3 server for tests: S3Proxy ({@code java -jar}, path from the system property
 * {@code s3proxy.jar}) as a child process on a free 127.0.0.1 port, storing blobs on the
 * filesystem under a directory the test owns (a {@code @TempDir}), with SigV2/SigV4 auth by
 * {@link #IDENTITY}/{@link #CREDENTIAL}.
 *
 * <pre>{@code
 * try (S3ProxyServer s3 = S3ProxyServer.start(tempDir)) {
 *     s3.createBucket("backups");
 *     ... s3.endpoint(), s3.identity(), s3.credential(), s3.client() ...
 * }
 * }</pre>
 *
 * <p>{@link #close()} kills the process and its descendants and waits for them; a JVM shutdown
 * hook does the same if a test run dies first. Its log is {@code s3proxy.log} in the directory.
 */
public final class S3ProxyServer implements AutoCloseable {
    /** The access key S3Proxy accepts. */
    public static final String IDENTITY = "test-access-key";
    /** The secret key S3Proxy accepts. */
    public static final String CREDENTIAL = "test-secret-key-0123456789";
    /** S3Proxy ignores the region; clients still need one to sign. */
    public static final Region REGION = Region.US_EAST_1;

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final int START_ATTEMPTS = 3;

    private final ChildServer server;
    private final URI endpoint;
    private final String credential;
    private S3Client client;

    private S3ProxyServer(ChildServer server, URI endpoint, String credential) {
        this.server = server;
        this.credential = credential;
        this.endpoint = endpoint;
    }

    /**
     * Starts S3Proxy with its blobstore and log under {@code workDir} and waits until it
     * answers HTTP. Retries on another port if the free port was taken meanwhile.
     */
    public static S3ProxyServer start(Path workDir) {
        return start(workDir, CREDENTIAL);
    }

    /** As {@link #start(Path)}, accepting {@code credential} as the secret key instead of {@link #CREDENTIAL}. */
    public static S3ProxyServer start(Path workDir, String credential) {
        String jar = Objects.requireNonNull(
                System.getProperty("s3proxy.jar"),
                "system property s3proxy.jar (set by the pom) names the S3Proxy jar");
        IllegalStateException failure = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            try {
                return startOnce(Path.of(jar), workDir.resolve("s3proxy-" + attempt), credential);
            } catch (IllegalStateException e) {
                failure = e;
            }
        }
        throw failure;
    }

    /** {@code http://127.0.0.1:PORT}. */
    public URI endpoint() {
        return endpoint;
    }

    public String identity() {
        return IDENTITY;
    }

    public String credential() {
        return credential;
    }

    public Region region() {
        return REGION;
    }

    /** A path-style client with the server's credentials, owned (and closed) by the server. */
    public synchronized S3Client client() {
        if (client == null) {
            client = S3Client.builder()
                    .endpointOverride(endpoint)
                    .region(REGION)
                    .forcePathStyle(true)
                    .credentialsProvider(
                            StaticCredentialsProvider.create(AwsBasicCredentials.create(IDENTITY, credential)))
                    .build();
        }
        return client;
    }

    public void createBucket(String name) {
        client().createBucket(b -> b.bucket(name));
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            client.close();
            client = null;
        }
        server.close();
    }

    private static S3ProxyServer startOnce(Path jar, Path dir, String credential) {
        int port = ChildServer.freeLoopbackPort();
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        Path blobs = dir.resolve("blobs");
        Path properties = dir.resolve("s3proxy.properties");
        Path log = dir.resolve("s3proxy.log");
        try {
            Files.createDirectories(blobs);
            Files.writeString(
                    properties,
                    String.join("\n", propertiesLines(endpoint, blobs, credential)) + "\n",
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // Any HTTP answer counts (an unsigned request gets 403): the server is up.
        ChildServer server = ChildServer.start(
                "S3Proxy at " + endpoint,
                new ProcessBuilder(command(jar, properties)),
                log,
                START_TIMEOUT,
                STOP_TIMEOUT,
                () -> ChildServer.get(endpoint).isPresent());
        return new S3ProxyServer(server, endpoint, credential);
    }

    private static List<String> command(Path jar, Path properties) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Small and quick to start: the machine is shared and the tests move tens of MB only.
        command.add("-Xmx256m");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-jar");
        command.add(jar.toString());
        command.add("--properties");
        command.add(properties.toString());
        return command;
    }

    private static List<String> propertiesLines(URI endpoint, Path blobs, String credential) {
        return List.of(
                "s3proxy.endpoint=" + endpoint,
                "s3proxy.authorization=aws-v2-or-v4",
                "s3proxy.identity=" + IDENTITY,
                "s3proxy.credential=" + credential,
                "jclouds.provider=filesystem",
                "jclouds.filesystem.basedir=" + blobs);
    }
}
