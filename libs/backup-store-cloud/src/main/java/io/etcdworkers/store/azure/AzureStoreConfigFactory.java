package io.etcdworkers.store.azure;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerEnv;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.CredentialSecret;
import io.etcdworkers.store.StoreRetry;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds an {@link AzureStoreConfig} the way {@code etcdbrctl} v0.41 builds its ABS client, so a
 * worker accepts etcd-druid's backup Secret unchanged:
 * <ol>
 *   <li>credentials: {@value #CREDENTIALS_JSON_ENV} (a JSON file), else
 *       {@value #CREDENTIALS_DIR_ENV} (a directory; see {@link AzureCredentialFileReader}); with
 *       neither set, exit 2 naming both (no ambient identity: etcdbrctl has none either);</li>
 *   <li>container URL: {@code --store-endpoint-override} + {@code /<container>} when given, else
 *       {@code https://<storageAccount>.<domain>/<container>} with the Secret's deprecated
 *       {@code domain} (logged at WARN, as etcdbrctl does) or {@value #GLOBAL_DOMAIN}.</li>
 * </ol>
 * The container is the flag, else {@value WorkerEnv#STORAGE_CONTAINER}. The environment is
 * injected; this class never reads {@code System.getenv}.
 */
public final class AzureStoreConfigFactory {
    public static final String CREDENTIALS_JSON_ENV = WorkerEnv.AZURE_APPLICATION_CREDENTIALS_JSON;
    public static final String CREDENTIALS_DIR_ENV = WorkerEnv.AZURE_APPLICATION_CREDENTIALS;
    public static final String GLOBAL_DOMAIN = "blob.core.windows.net";
    /** Where a worker looks for ABS credentials, in order; for the message. */
    static final String WHERE = "the file named by " + CREDENTIALS_JSON_ENV + ", then the directory named by "
            + CREDENTIALS_DIR_ENV + " (etcd-druid mounts the backup Secret there: a *.json file, or the files "
            + "storageAccount and storageKey)";

    private static final Logger LOG = LoggerFactory.getLogger(AzureStoreConfigFactory.class);

    private final Map<String, String> env;

    public AzureStoreConfigFactory(Map<String, String> env) {
        this.env = Map.copyOf(Objects.requireNonNull(env, "env"));
    }

    /**
     * @throws WorkerException {@link ErrorCode#USAGE} on a missing container or credentials, a bad
     *     credentials file, or a container URL that is not one
     */
    public AzureStoreConfig create(Optional<String> containerFlag, Optional<URI> endpointOverrideFlag) {
        String container = containerFlag
                .filter(s -> !s.isBlank())
                .map(String::strip)
                .or(() -> envValue(WorkerEnv.STORAGE_CONTAINER))
                .orElseThrow(() -> new WorkerException(
                        ErrorCode.USAGE,
                        "no ABS container: give the container flag or set " + WorkerEnv.STORAGE_CONTAINER));
        AzureCredentials credentials = credentials();
        credentials
                .ignoredKeys()
                .forEach(key -> LOG.warn(
                        "ignoring {} in the ABS credentials {}, as etcdbrctl v0.41 "
                                + "does; point --store-endpoint-override at the emulator instead",
                        key,
                        credentials.source()));
        URI url;
        if (endpointOverrideFlag.isPresent()) {
            url = join(endpointOverrideFlag.get().toString(), container);
        } else {
            credentials
                    .domain()
                    .ifPresent(d -> LOG.warn(
                            "domain in the ABS credentials {} is deprecated (etcdbrctl "
                                    + "v0.41 too); use --store-endpoint-override instead",
                            credentials.source()));
            url = parse(
                    "https://" + credentials.storageAccount() + "."
                            + credentials.domain().orElse(GLOBAL_DOMAIN) + "/" + container,
                    "the container URL built from storageAccount and domain in " + credentials.source());
        }
        return new AzureStoreConfig(
                container,
                url,
                credentials.storageAccount(),
                credentials.storageKey(),
                StoreRetry.DEFAULT,
                AzureStoreConfig.DEFAULT_BLOCK_SIZE);
    }

    /** The credentials the environment points at, read and validated. */
    public AzureCredentials credentials() {
        return CredentialSecret.fromEnv(
                        AzureCredentialFileReader.PROVIDER, env, CREDENTIALS_JSON_ENV, CREDENTIALS_DIR_ENV)
                .map(AzureCredentialFileReader::read)
                .orElseThrow(
                        () -> new WorkerException(ErrorCode.USAGE, "no ABS credentials found; looked in " + WHERE));
    }

    /** Go's {@code url.JoinPath(override, container)}: one slash between, the override's path kept. */
    private static URI join(String override, String container) {
        String base = override.endsWith("/") ? override.substring(0, override.length() - 1) : override;
        return parse(base + "/" + container, "--store-endpoint-override joined with the container");
    }

    private static URI parse(String url, String what) {
        try {
            URI uri = new URI(url);
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new URISyntaxException(url, "expected scheme://host[:port]/...");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new WorkerException(ErrorCode.USAGE, what + " is not a URL: " + e.getMessage(), e);
        }
    }

    private Optional<String> envValue(String name) {
        return Optional.ofNullable(env.get(name)).map(String::strip).filter(s -> !s.isEmpty());
    }
}
