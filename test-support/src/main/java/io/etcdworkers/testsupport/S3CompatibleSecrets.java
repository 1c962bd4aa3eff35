package io.etcdworkers.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The Secret of each provider the workers read through their S3 store, pointing at S3Proxy, each
 * in the layout etcd-druid gives it and exercising one of its endpoint rules:
 * <ul>
 *   <li>S3: the JSON file ({@code AWS_APPLICATION_CREDENTIALS_JSON}, path-style); the endpoint
 *       comes from {@code --store-endpoint-override};</li>
 *   <li>OSS: the mounted directory, {@code storageEndpoint} without a scheme (http, as etcdbrctl's
 *       OSS SDK) on an IP address (path-style);</li>
 *   <li>ECS: the variables etcd-druid sets;</li>
 *   <li>OCS: the JSON file, an {@code https://} endpoint with {@code disableSSL} (plain HTTP: S3Proxy
 *       speaks nothing else here, so the rule is what makes it work).</li>
 * </ul>
 */
public final class S3CompatibleSecrets {
    private S3CompatibleSecrets() {}

    /** Writes {@code provider}'s Secret (etcdbrctl's name) with {@code secret} as its secret key under {@code dir}. */
    public static Map<String, String> env(S3ProxyServer s3, String provider, String secret, Path dir) {
        String hostPort = s3.endpoint().getAuthority();
        Map<String, String> env = new HashMap<>(Map.of("PATH", System.getenv("PATH")));
        try {
            switch (provider) {
                case "S3" -> env.putAll(S3Buckets.env(s3, secret, dir.resolve("aws-secret")));
                case "OSS" -> {
                    Path mounted = Files.createDirectories(dir.resolve("oss-secret"));
                    Files.writeString(mounted.resolve("accessKeyID"), s3.identity() + "\n");
                    Files.writeString(mounted.resolve("accessKeySecret"), secret + "\n");
                    Files.writeString(mounted.resolve("storageEndpoint"), hostPort + "\n");
                    env.put("ALICLOUD_APPLICATION_CREDENTIALS", mounted.toString());
                }
                case "ECS" -> {
                    env.put("ECS_ENDPOINT", s3.endpoint().toString());
                    env.put("ECS_ACCESS_KEY_ID", s3.identity());
                    env.put("ECS_SECRET_ACCESS_KEY", secret);
                }
                case "OCS" -> {
                    Path json =
                            Files.createDirectories(dir.resolve("ocs-secret")).resolve("ocs.json");
                    Files.writeString(
                            json,
                            "{\"accessKeyID\":\"" + s3.identity() + "\",\"secretAccessKey\":\"" + secret
                                    + "\",\"endpoint\":\"https://" + hostPort + "\",\"region\":\""
                                    + s3.region().id()
                                    + "\",\"disableSSL\":true}");
                    env.put("OPENSHIFT_APPLICATION_CREDENTIALS_JSON", json.toString());
                }
                default -> throw new IllegalArgumentException("not read through the S3 store: " + provider);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return env;
    }
}
