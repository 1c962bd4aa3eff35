package io.etcdworkers.store.swift;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerEnv;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.StoreRetry;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Builds a {@link SwiftStoreConfig} as etcdbrctl builds its Swift client: the login from the
 * Secret and the {@code OS_*} environment ({@link SwiftCredentialsReader}), the account's URL from
 * the token's catalog (the {@code object-store} service's {@code public} endpoint in
 * {@value WorkerEnv#OS_REGION_NAME}, or the first one when that is unset), unless
 * {@code --store-endpoint-override} names the account URL itself. The container is the flag,
 * else {@value WorkerEnv#STORAGE_CONTAINER}. The environment is injected; this class never
 * reads {@code System.getenv}.
 */
public final class SwiftStoreConfigFactory {
    private final Map<String, String> env;

    public SwiftStoreConfigFactory(Map<String, String> env) {
        this.env = Map.copyOf(Objects.requireNonNull(env, "env"));
    }

    /**
     * @throws WorkerException {@link ErrorCode#USAGE} on a missing container, credentials that
     *     etcdbrctl would refuse, or an override that is not an http(s) URL
     */
    public SwiftStoreConfig create(Optional<String> containerFlag, Optional<URI> endpointOverrideFlag) {
        String container = containerFlag
                .filter(s -> !s.isBlank())
                .map(String::strip)
                .or(() -> value(WorkerEnv.STORAGE_CONTAINER))
                .orElseThrow(() -> new WorkerException(
                        ErrorCode.USAGE,
                        "no Swift container: give the container flag or set " + WorkerEnv.STORAGE_CONTAINER));
        if (container.contains("/")) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    "the Swift container \"" + container + "\" has a '/': give "
                            + "the container alone and the rest as --store-prefix");
        }
        SwiftCredentials credentials = SwiftCredentialsReader.read(env);
        Optional<URI> override = endpointOverrideFlag.map(SwiftStoreConfigFactory::checkOverride);
        return new SwiftStoreConfig(
                container,
                credentials,
                override,
                value(WorkerEnv.OS_REGION_NAME),
                StoreRetry.DEFAULT,
                SwiftStoreConfig.DEFAULT_SEGMENT_SIZE,
                SwiftStoreConfig.DEFAULT_MAX_SEGMENTS,
                SwiftStoreConfig.DEFAULT_PAGE_SIZE);
    }

    private static URI checkOverride(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getQuery() != null || uri.getFragment() != null) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    "--store-endpoint-override for Swift is the account URL "
                            + "(http[s]://HOST[:PORT]/v1/AUTH_<project>), without a query: " + uri);
        }
        return uri;
    }

    private Optional<String> value(String name) {
        return Optional.ofNullable(env.get(name)).map(String::strip).filter(s -> !s.isEmpty());
    }
}
