package io.etcdworkers.workercli;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.LocalDirectoryStore;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.store.azure.AzureBlobStore;
import io.etcdworkers.store.azure.AzureStoreConfig;
import io.etcdworkers.store.azure.AzureStoreConfigFactory;
import io.etcdworkers.store.gcs.GcsObjectStore;
import io.etcdworkers.store.gcs.GcsStoreConfig;
import io.etcdworkers.store.gcs.GcsStoreConfigFactory;
import io.etcdworkers.store.s3.S3CompatibleStoreConfigFactory;
import io.etcdworkers.store.s3.S3ObjectStore;
import io.etcdworkers.store.s3.S3StoreConfig;
import io.etcdworkers.store.s3.S3StoreConfigFactory;
import io.etcdworkers.store.swift.SwiftObjectStore;
import io.etcdworkers.store.swift.SwiftStoreConfig;
import io.etcdworkers.store.swift.SwiftStoreConfigFactory;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** Opens the store the flags describe. */
public final class StoreFactory {
    private final Map<String, String> env;
    private final Path workingDir;

    /**
     * @param env the process environment (credentials variables are read from it)
     * @param workingDir what a relative Local container is relative to
     */
    public StoreFactory(Map<String, String> env, Path workingDir) {
        this.env = Map.copyOf(env);
        this.workingDir = workingDir;
    }

    /** etcdbrctl's Local container when none is given (v0.41+: under {@code $HOME}). */
    static final String DEFAULT_LOCAL_CONTAINER = "default.bkp";

    public ObjectStore open(StoreOptions options) {
        if (options.provider == StoreOptions.Provider.Local
                && options.localUnderHome
                && (options.container == null || options.container.isBlank())) {
            options.container = DEFAULT_LOCAL_CONTAINER;
        }
        if (options.container == null || options.container.isBlank()) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    "no store container: give --store-container (or STORAGE_CONTAINER / "
                            + EnvDefaultProvider.variableFor("--store-container") + ")");
        }
        return switch (options.provider) {
            case Local -> new LocalDirectoryStore(existingLocalDirectory(options));
            case S3 ->
                new S3ObjectStore(withTimeout(
                        new S3StoreConfigFactory(env)
                                .create(Optional.of(options.container), endpoint(options.endpointOverride)),
                        options.requestTimeout));
            case ABS ->
                new AzureBlobStore(withTimeout(
                        new AzureStoreConfigFactory(env)
                                .create(Optional.of(options.container), endpoint(options.endpointOverride)),
                        options.requestTimeout));
            case GCS ->
                new GcsObjectStore(withTimeout(
                        new GcsStoreConfigFactory(env)
                                .create(Optional.of(options.container), endpoint(options.endpointOverride)),
                        options.requestTimeout));
            case Swift ->
                new SwiftObjectStore(withTimeout(
                        new SwiftStoreConfigFactory(env)
                                .create(Optional.of(options.container), endpoint(options.endpointOverride)),
                        options.requestTimeout));
            case OSS ->
                new S3ObjectStore(withTimeout(
                        new S3CompatibleStoreConfigFactory(env)
                                .oss(Optional.of(options.container), endpoint(options.endpointOverride)),
                        options.requestTimeout));
            case ECS ->
                new S3ObjectStore(withTimeout(
                        new S3CompatibleStoreConfigFactory(env)
                                .ecs(Optional.of(options.container), endpoint(options.endpointOverride)),
                        options.requestTimeout));
            case OCS ->
                new S3ObjectStore(withTimeout(
                        new S3CompatibleStoreConfigFactory(env)
                                .ocs(Optional.of(options.container), endpoint(options.endpointOverride)),
                        options.requestTimeout));
        };
    }

    /** The Local container's directory (see {@link #localDirectory}); nothing for the other providers. */
    public Optional<Path> localBucket(StoreOptions options) {
        if (options.provider != StoreOptions.Provider.Local
                || options.container == null
                || options.container.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(localDirectory(options));
    }

    /**
     * The Local container's directory, refused when it is none. Without {@code --storage-provider}
     * the provider is Local, so a bucket name given as the container names a directory that is not
     * there: the message says that the provider defaulted and names the others.
     */
    private Path existingLocalDirectory(StoreOptions options) {
        Path directory = localDirectory(options).toAbsolutePath().normalize();
        if (!Files.isDirectory(directory) && options.providerDefaulted(env)) {
            throw new WorkerException(
                    ErrorCode.STORE_NOT_FOUND,
                    String.format(
                            "no directory %s (%s): without "
                                    + "--storage-provider the provider is Local, whose --store-container is a directory. For a bucket "
                                    + "or container in an object store give its provider: did you mean --storage-provider S3, ABS, "
                                    + "GCS, Swift, OSS, ECS or OCS?",
                            options.container, directory));
        }
        return directory;
    }

    /**
     * The Local container's directory: a path (absolute, or relative to the working directory), as
     * etcdbrctl v0.23 reads it; with {@code --local-under-home} as v0.41+ does, {@code
     * path.Join($HOME, container)}, which puts an absolute container under {@code $HOME} as well.
     */
    Path localDirectory(StoreOptions options) {
        if (!options.localUnderHome) {
            return workingDir.resolve(options.container);
        }
        String home = env.getOrDefault("HOME", System.getProperty("user.home"));
        String relative = options.container.replaceFirst("^/+", "");
        return Path.of(home).resolve(relative.isEmpty() ? "." : relative).normalize();
    }

    private static AzureStoreConfig withTimeout(AzureStoreConfig config, Duration requestTimeout) {
        if (requestTimeout == null) {
            return config;
        }
        checkPositive(requestTimeout);
        return config.withRetry(config.retry().withTryTimeout(requestTimeout));
    }

    private static GcsStoreConfig withTimeout(GcsStoreConfig config, Duration requestTimeout) {
        if (requestTimeout == null) {
            return config;
        }
        checkPositive(requestTimeout);
        return config.withRetry(config.retry().withTryTimeout(requestTimeout));
    }

    private static SwiftStoreConfig withTimeout(SwiftStoreConfig config, Duration requestTimeout) {
        if (requestTimeout == null) {
            return config;
        }
        checkPositive(requestTimeout);
        return config.withRetry(config.retry().withTryTimeout(requestTimeout));
    }

    private static S3StoreConfig withTimeout(S3StoreConfig config, Duration requestTimeout) {
        if (requestTimeout == null) {
            return config;
        }
        checkPositive(requestTimeout);
        return config.withRetry(config.retry().withAttemptTimeout(requestTimeout));
    }

    private static void checkPositive(Duration requestTimeout) {
        if (requestTimeout.isZero() || requestTimeout.isNegative()) {
            throw new WorkerException(ErrorCode.USAGE, "--store-request-timeout must be positive: " + requestTimeout);
        }
    }

    private static Optional<URI> endpoint(String flag) {
        if (flag == null || flag.isBlank()) {
            return Optional.empty();
        }
        try {
            URI uri = new URI(flag.strip());
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new URISyntaxException(flag, "expected scheme://host[:port]");
            }
            return Optional.of(uri);
        } catch (URISyntaxException e) {
            throw new WorkerException(ErrorCode.USAGE, "--store-endpoint-override is not a URL: " + e.getMessage(), e);
        }
    }
}
