package io.etcdworkers.store.s3;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerEnv;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.CredentialSecret;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsWebIdentityTokenFileCredentialsProvider;

/**
 * Builds an {@link S3StoreConfig} the way {@code etcdbrctl} finds its S3 settings, so a worker
 * accepts etcd-druid's backup Secret unchanged:
 * <ol>
 *   <li>{@value #CREDENTIALS_JSON_ENV}: path of a JSON credentials file; else</li>
 *   <li>{@value #CREDENTIALS_DIR_ENV}: a directory with a {@code *.json} file or one file per
 *       key (see {@link AwsCredentialFileReader}); else</li>
 *   <li>{@code AWS_ACCESS_KEY_ID}/{@code AWS_SECRET_ACCESS_KEY} from the environment, else the
 *       SDK's default credentials chain (profiles, container and instance roles).</li>
 * </ol>
 * The region comes from the credentials file, else {@code AWS_REGION}, else the SDK's region
 * chain; none is an error. An endpoint override flag wins over the file's {@code endpoint};
 * the bucket is the container flag, else {@value #CONTAINER_ENV}.
 *
 * <p>The environment is injected; this class never reads {@code System.getenv}.
 */
public final class S3StoreConfigFactory {
    public static final String CREDENTIALS_JSON_ENV = WorkerEnv.AWS_APPLICATION_CREDENTIALS_JSON;
    public static final String CREDENTIALS_DIR_ENV = WorkerEnv.AWS_APPLICATION_CREDENTIALS;
    public static final String CONTAINER_ENV = WorkerEnv.STORAGE_CONTAINER;
    static final String WEB_IDENTITY_SESSION_NAME = "etcd-restore-worker";

    private final Map<String, String> env;
    private final Supplier<Optional<Region>> sdkRegionChain;

    /** Uses the SDK's region chain as the last resort for the region. */
    public S3StoreConfigFactory(Map<String, String> env) {
        this(env, S3StoreConfigFactory::sdkRegion);
    }

    /** With the last-resort region lookup injected (tests pass one that finds nothing). */
    public S3StoreConfigFactory(Map<String, String> env, Supplier<Optional<Region>> sdkRegionChain) {
        this.env = Map.copyOf(Objects.requireNonNull(env, "env"));
        this.sdkRegionChain = Objects.requireNonNull(sdkRegionChain, "sdkRegionChain");
    }

    /**
     * The config for {@code containerFlag} (else {@value #CONTAINER_ENV}) with
     * {@code endpointOverrideFlag} (else the credentials file's endpoint), other settings default.
     *
     * @throws WorkerException {@link ErrorCode#USAGE} on a missing bucket or region, or a bad
     *     credentials file
     */
    public S3StoreConfig create(Optional<String> containerFlag, Optional<URI> endpointOverrideFlag) {
        String bucket = containerFlag
                .filter(s -> !s.isBlank())
                .or(() -> envValue(CONTAINER_ENV))
                .orElseThrow(() -> new WorkerException(
                        ErrorCode.USAGE, "no S3 bucket: give the container flag or set " + CONTAINER_ENV));
        Optional<AwsCredentialFile> file = credentialFile();
        Region region = file.flatMap(AwsCredentialFile::region)
                .or(() -> envValue("AWS_REGION"))
                .map(Region::of)
                .or(sdkRegionChain)
                .orElseThrow(() -> new WorkerException(
                        ErrorCode.USAGE,
                        "no AWS region for bucket \"" + bucket
                                + "\": set region in the credentials file or AWS_REGION"));
        Optional<URI> endpoint = endpointOverrideFlag.or(
                () -> file.flatMap(AwsCredentialFile::endpoint).map(S3StoreConfigFactory::endpointUri));
        S3StoreConfig base = S3StoreConfig.of(
                bucket,
                region,
                endpoint,
                file.flatMap(AwsCredentialFile::s3ForcePathStyle).orElse(false),
                credentialsProvider(file, region));
        if (file.isEmpty()) {
            return base;
        }
        AwsCredentialFile f = file.get();
        Optional<SseCustomerKey> sse = f.sseCustomerKey()
                .map(key ->
                        SseCustomerKey.fromRawKey(key, f.sseCustomerAlgorithm().orElseThrow()));
        return new S3StoreConfig(
                S3StoreConfig.S3,
                bucket,
                region,
                endpoint,
                base.forcePathStyle(),
                base.credentials(),
                sse,
                new S3StoreConfig.Tls(f.insecureSkipVerify().orElse(false), f.trustedCaCert()),
                base.retry(),
                base.partSize(),
                f.requestChecksumCalculation()
                        .map(S3StoreConfigFactory::requestChecksums)
                        .orElse(base.requestChecksums()),
                f.responseChecksumValidation()
                        .map(S3StoreConfigFactory::responseChecksums)
                        .orElse(base.responseChecksums()),
                base.chunkedEncoding());
    }

    /** The credentials file the environment points at, read and validated; none without one. */
    public Optional<AwsCredentialFile> credentialFile() {
        return CredentialSecret.fromEnv(
                        AwsCredentialFileReader.PROVIDER, env, CREDENTIALS_JSON_ENV, CREDENTIALS_DIR_ENV)
                .map(AwsCredentialFileReader::read);
    }

    private AwsCredentialsProvider credentialsProvider(Optional<AwsCredentialFile> file, Region region) {
        if (file.isPresent() && file.get().isWebIdentity()) {
            AwsCredentialFile f = file.get();
            // AssumeRoleWithWebIdentity is an unsigned call: anonymous credentials keep the STS
            // client from walking the default chain for credentials it does not need.
            StsClient sts = StsClient.builder()
                    .region(region)
                    .httpClientBuilder(ApacheHttpClient.builder())
                    .credentialsProvider(AnonymousCredentialsProvider.create())
                    .build();
            return StsWebIdentityTokenFileCredentialsProvider.builder()
                    .stsClient(sts)
                    .roleArn(f.roleArn().orElseThrow())
                    .webIdentityTokenFile(f.tokenPath().orElseThrow())
                    .roleSessionName(WEB_IDENTITY_SESSION_NAME)
                    .build();
        }
        if (file.isPresent()) {
            AwsCredentialFile f = file.get();
            return StaticCredentialsProvider.create(AwsBasicCredentials.create(
                    f.accessKeyId().orElseThrow(), f.secretAccessKey().orElseThrow()));
        }
        Optional<String> keyId = envValue("AWS_ACCESS_KEY_ID");
        Optional<String> secret = envValue("AWS_SECRET_ACCESS_KEY");
        if (keyId.isPresent() && secret.isPresent()) {
            Optional<String> token = envValue("AWS_SESSION_TOKEN");
            return StaticCredentialsProvider.create(
                    token.isPresent()
                            ? AwsSessionCredentials.create(keyId.get(), secret.get(), token.get())
                            : AwsBasicCredentials.create(keyId.get(), secret.get()));
        }
        return new CredentialsSearch(DefaultCredentialsProvider.builder().build());
    }

    private Optional<String> envValue(String name) {
        return Optional.ofNullable(env.get(name)).map(String::strip).filter(s -> !s.isEmpty());
    }

    private static URI endpointUri(String value) {
        try {
            URI uri = new URI(value);
            if (!uri.isAbsolute() || uri.getHost() == null) {
                throw new WorkerException(
                        ErrorCode.USAGE,
                        "S3 endpoint \"" + value
                                + "\" in the credentials file must be an absolute URL such as https://host:port");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new WorkerException(
                    ErrorCode.USAGE, "S3 endpoint \"" + value + "\" in the credentials file is not a URL", e);
        }
    }

    private static RequestChecksumCalculation requestChecksums(String value) {
        return value.toLowerCase(Locale.ROOT).equals("when_required")
                ? RequestChecksumCalculation.WHEN_REQUIRED
                : RequestChecksumCalculation.WHEN_SUPPORTED;
    }

    private static ResponseChecksumValidation responseChecksums(String value) {
        return value.toLowerCase(Locale.ROOT).equals("when_required")
                ? ResponseChecksumValidation.WHEN_REQUIRED
                : ResponseChecksumValidation.WHEN_SUPPORTED;
    }

    private static Optional<Region> sdkRegion() {
        try {
            return Optional.of(DefaultAwsRegionProviderChain.builder().build().getRegion());
        } catch (SdkClientException e) {
            // The chain reports "no region found" this way; the caller turns it into USAGE.
            return Optional.empty();
        }
    }
}
