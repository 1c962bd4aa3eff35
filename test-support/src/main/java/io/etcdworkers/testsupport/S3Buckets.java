package io.etcdworkers.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import software.amazon.awssdk.core.sync.RequestBody;

/** Fixture buckets copied into S3Proxy, and the environment a worker needs to read them. */
public final class S3Buckets {
    private S3Buckets() {}

    /** Uploads every object of a Local bucket's {@code v2/} as {@code <prefix>/v2/<name>}. */
    public static void upload(S3ProxyServer s3, String bucket, String prefix, Path localBucket) {
        try (Stream<Path> files = Files.list(localBucket.resolve("v2"))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                s3.client()
                        .putObject(
                                b -> b.bucket(bucket).key(prefix + "/v2/" + file.getFileName()),
                                RequestBody.fromFile(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes a credentials file (the form etcd-druid mounts) with {@code secret} as the secret key
     * and returns the environment that points a worker at it.
     */
    public static Map<String, String> env(S3ProxyServer s3, String secret, Path dir) {
        Path credentials = dir.resolve("credentials.json");
        try {
            Files.createDirectories(dir);
            Files.writeString(
                    credentials,
                    String.format(
                            "{\"accessKeyID\":\"%s\",\"secretAccessKey\":\"%s\","
                                    + "\"region\":\"%s\",\"s3ForcePathStyle\":true}",
                            s3.identity(), secret, s3.region().id()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of("PATH", System.getenv("PATH"), "AWS_APPLICATION_CREDENTIALS_JSON", credentials.toString());
    }
}
