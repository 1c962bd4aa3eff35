package io.etcdworkers.store.s3;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;

/**
 * Builds the {@link S3StoreConfig} of the S3-compatible providers etcdbrctl has apart from S3:
 * Alibaba OSS, Dell ECS and OpenShift OCS, each with its own Secret (see
 * {@link S3CompatibleCredentialsReader}) and endpoint rules, all through {@link S3ObjectStore}.
 *
 * <p><b>OSS goes through its S3-compatible API, not Alibaba's OSS SDK.</b> OSS answers S3 requests
 * signed with AWS SigV4 on its own endpoints, so one client, one multipart writer and one error
 * mapping serve every S3-like store, the jars stay free of a second HTTP stack, and the OSS path is
 * tested here against a real S3 server (S3Proxy) rather than against nothing. The endpoint is read
 * as etcdbrctl's OSS SDK reads {@code storageEndpoint}: {@code http://} unless the value says
 * {@code https://} (logged at WARN: write {@code https://} to encrypt), host and port only,
 * path-style addressing for an IP address and virtual-hosted ({@code <bucket>.<endpoint>}, the only
 * style OSS serves) for a name. As Alibaba documents for AWS SDKs: the region is
 * {@code aws-global}, and neither {@code aws-chunked} bodies nor flexible checksums are sent.
 *
 * <p><b>ECS and OCS</b> are etcdbrctl's generic S3 store ({@code generic_s3_snapstore.go}):
 * path-style addressing, the endpoint as given (an absolute {@code http(s)://} URL, else exit 2),
 * turned to {@code http} when {@code disableSSL} is set (as the Go SDK's {@code DisableHTTPS} does),
 * any certificate accepted with {@code insecureSkipVerify}; region {@value #ECS_REGION} for ECS (it
 * has none), the Secret's for OCS. Uploads carry no flexible checksum (CRC trailers): the older
 * S3-compatible servers refuse them, and a backup's own SHA-256 trailer and lengths are checked
 * on every read.
 *
 * <p>{@code --store-endpoint-override}, which etcdbrctl ignores for these three, replaces the
 * Secret's endpoint here; the provider's rules then apply to it as to the Secret's.
 */
public final class S3CompatibleStoreConfigFactory {
    /** What etcdbrctl signs ECS requests for: ECS has no regions. */
    public static final String ECS_REGION = "US-Standard";

    private static final Logger LOG = LoggerFactory.getLogger(S3CompatibleStoreConfigFactory.class);
    private static final Pattern IPV4 =
            Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");

    private final Map<String, String> env;
    private final S3CompatibleCredentialsReader reader;

    public S3CompatibleStoreConfigFactory(Map<String, String> env) {
        this.env = Map.copyOf(Objects.requireNonNull(env, "env"));
        this.reader = new S3CompatibleCredentialsReader(this.env);
    }

    public S3StoreConfig oss(Optional<String> containerFlag, Optional<URI> endpointOverrideFlag) {
        String bucket = bucket("OSS", containerFlag);
        S3CompatibleCredentials c = reader.oss();
        URI endpoint = ossEndpoint(
                endpointOverrideFlag.map(URI::toString).orElse(c.endpoint()),
                endpointOverrideFlag.isPresent() ? "--store-endpoint-override" : "storageEndpoint in " + c.source(),
                bucket);
        return config(c, bucket, Region.AWS_GLOBAL, endpoint, !isIpAddress(endpoint.getHost()), false);
    }

    public S3StoreConfig ecs(Optional<String> containerFlag, Optional<URI> endpointOverrideFlag) {
        return generic(bucket("ECS", containerFlag), reader.ecs(), Region.of(ECS_REGION), endpointOverrideFlag);
    }

    public S3StoreConfig ocs(Optional<String> containerFlag, Optional<URI> endpointOverrideFlag) {
        S3CompatibleCredentials c = reader.ocs();
        return generic(bucket("OCS", containerFlag), c, Region.of(c.region().orElseThrow()), endpointOverrideFlag);
    }

    private S3StoreConfig generic(String bucket, S3CompatibleCredentials c, Region region, Optional<URI> override) {
        String what = override.isPresent() ? "--store-endpoint-override" : "the endpoint in " + c.source();
        URI given = override.orElseGet(() -> absoluteUrl(c.provider(), c.endpoint(), what, bucket));
        URI endpoint = c.disableSsl() ? withScheme(given, "http") : given;
        return config(c, bucket, region, endpoint, false, true);
    }

    private static S3StoreConfig config(
            S3CompatibleCredentials c,
            String bucket,
            Region region,
            URI endpoint,
            boolean virtualHosted,
            boolean chunkedEncoding) {
        var credentials =
                StaticCredentialsProvider.create(AwsBasicCredentials.create(c.accessKeyId(), c.secretAccessKey()));
        S3StoreConfig.Tls tls = new S3StoreConfig.Tls(c.insecureSkipVerify() && !c.disableSsl(), Optional.empty());
        return new S3StoreConfig(
                c.provider(),
                bucket,
                region,
                Optional.of(endpoint),
                !virtualHosted,
                credentials,
                Optional.empty(),
                tls,
                S3StoreConfig.Retry.DEFAULT,
                S3StoreConfig.DEFAULT_PART_SIZE,
                RequestChecksumCalculation.WHEN_REQUIRED,
                ResponseChecksumValidation.WHEN_REQUIRED,
                chunkedEncoding);
    }

    /** etcdbrctl's OSS SDK: a missing scheme is http, and only scheme, host and port are used. */
    static URI ossEndpoint(String value, String what, String bucket) {
        String scheme = "http";
        String rest = value;
        if (value.startsWith("https://")) {
            scheme = "https";
            rest = value.substring("https://".length());
        } else if (value.startsWith("http://")) {
            rest = value.substring("http://".length());
        } else {
            LOG.warn(
                    "the OSS endpoint {} has no scheme: using http://, as etcdbrctl's OSS SDK does "
                            + "(write https://{} to encrypt)",
                    value,
                    value);
        }
        URI parsed = absoluteUrl("OSS", scheme + "://" + rest, what, bucket);
        return withPathAndScheme(parsed, scheme, null);
    }

    private static URI absoluteUrl(String provider, String value, String what, String bucket) {
        try {
            URI uri = new URI(value);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme();
            if (uri.getHost() == null || !(scheme.equals("http") || scheme.equals("https"))) {
                throw new URISyntaxException(value, "expected http(s)://host[:port]");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    provider + " endpoint \"" + value + "\" (" + what + ", bucket \"" + bucket
                            + "\") is not an absolute http(s) URL",
                    e);
        }
    }

    private static URI withScheme(URI uri, String scheme) {
        return withPathAndScheme(uri, scheme, uri.getPath());
    }

    /** {@code uri} with another scheme and path; user info, query and fragment dropped. */
    private static URI withPathAndScheme(URI uri, String scheme, String path) {
        try {
            return new URI(
                    scheme,
                    null,
                    uri.getHost(),
                    uri.getPort(),
                    path == null || path.isEmpty() ? null : path,
                    null,
                    null);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot rebuild " + uri, e);
        }
    }

    /** Go's {@code net.ParseIP} on a URI host: dotted IPv4, or a bracketed IPv6 literal. */
    static boolean isIpAddress(String host) {
        return host.startsWith("[") || IPV4.matcher(host).matches();
    }

    private String bucket(String provider, Optional<String> containerFlag) {
        return containerFlag
                .filter(s -> !s.isBlank())
                .map(String::strip)
                .or(() -> Optional.ofNullable(env.get(S3StoreConfigFactory.CONTAINER_ENV))
                        .map(String::strip)
                        .filter(s -> !s.isEmpty()))
                .orElseThrow(() -> new WorkerException(
                        ErrorCode.USAGE,
                        "no " + provider + " bucket: give the container flag or set "
                                + S3StoreConfigFactory.CONTAINER_ENV));
    }
}
