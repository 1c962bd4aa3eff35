package io.etcdworkers.store.gcs;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerEnv;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.StoreRetry;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a {@link GcsStoreConfig} the way {@code etcdbrctl} v0.41 builds its GCS client, so that
 * etcd-druid's backup Secret works unchanged (druid mounts it at {@code /var/.gcp/}, sets
 * {@value #CREDENTIALS_ENV}{@code =/var/.gcp/serviceaccount.json}, and sets
 * {@value #API_ENDPOINT_ENV} from the Secret's optional key {@code storageAPIEndpoint}).
 *
 * <p>The endpoint, first found wins:
 * <ol>
 *   <li>{@code --store-endpoint-override};</li>
 *   <li>the file {@value #ENDPOINT_FILE} beside the credentials file (the Secret's key, mounted;
 *       read by etcdbrctl v0.30+, deprecated by v0.41: logged at WARN);</li>
 *   <li>{@value #API_ENDPOINT_ENV} (etcdbrctl v0.24.8-v0.24.9 and v0.28-v0.32 read it; etcd-druid
 *       sets it from the same key; logged at WARN);</li>
 *   <li>{@value #EMULATOR_HOST_ENV} ({@code host:port} or a URL), which Google's Go SDK under
 *       etcdbrctl reads;</li>
 *   <li>{@value GcsStoreConfig#DEFAULT_ENDPOINT}.</li>
 * </ol>
 * Given in the Go SDK's form ({@code http[s]://host[:port]/storage/v1/}, as etcdbrctl's docs
 * write it) or as a bare root ({@code http://127.0.0.1:9199}): a trailing {@code /storage/v1}
 * is dropped, since the Java SDK adds it itself.
 *
 * <p>The identity ({@link GcsCredentials}):
 * <ol>
 *   <li>none, when the endpoint is {@code http} (etcdbrctl v0.41 takes that for an emulator:
 *       GCS itself is https only) or came from {@value #EMULATOR_HOST_ENV};</li>
 *   <li>else the file {@value #CREDENTIALS_ENV} names, checked as etcdbrctl checks it
 *       ({@link GcsCredentialFileReader}; checked in the emulator case too, as etcdbrctl does);</li>
 *   <li>else the SDK's application default credentials, resolved when the store is built.</li>
 * </ol>
 * The bucket is the flag, else {@value WorkerEnv#STORAGE_CONTAINER}. The environment is
 * injected; this class never reads {@code System.getenv}.
 */
public final class GcsStoreConfigFactory {
    public static final String CREDENTIALS_ENV = WorkerEnv.GOOGLE_APPLICATION_CREDENTIALS;
    public static final String API_ENDPOINT_ENV = WorkerEnv.GOOGLE_STORAGE_API_ENDPOINT;
    public static final String EMULATOR_HOST_ENV = "STORAGE_EMULATOR_HOST";
    public static final String ENDPOINT_FILE = "storageAPIEndpoint";
    private static final String GO_SDK_PATH = "/storage/v1";
    private static final Logger LOG = LoggerFactory.getLogger(GcsStoreConfigFactory.class);

    private final Map<String, String> env;

    public GcsStoreConfigFactory(Map<String, String> env) {
        this.env = Map.copyOf(Objects.requireNonNull(env, "env"));
    }

    /** Where an endpoint came from; the emulator variable also means "send no credentials". */
    private record Endpoint(URI uri, String source) {}

    /**
     * @throws WorkerException {@link ErrorCode#USAGE} on a missing bucket, a credentials file
     *     etcdbrctl would refuse, or an endpoint that is not a URL
     */
    public GcsStoreConfig create(Optional<String> containerFlag, Optional<URI> endpointOverrideFlag) {
        String bucket = containerFlag
                .filter(s -> !s.isBlank())
                .map(String::strip)
                .or(() -> envValue(WorkerEnv.STORAGE_CONTAINER))
                .orElseThrow(() -> new WorkerException(
                        ErrorCode.USAGE,
                        "no GCS bucket: give the container flag or set " + WorkerEnv.STORAGE_CONTAINER));
        Optional<Path> credentialsPath = envValue(CREDENTIALS_ENV).map(Path::of);
        Optional<GcsCredentialFile> file = credentialsPath.map(GcsCredentialFileReader::read);
        Endpoint endpoint = endpoint(endpointOverrideFlag, credentialsPath);
        GcsCredentials credentials;
        if (endpoint.source().equals(EMULATOR_HOST_ENV)) {
            credentials = GcsCredentials.anonymous(EMULATOR_HOST_ENV + " is set");
        } else if ("http".equalsIgnoreCase(endpoint.uri().getScheme())) {
            credentials = GcsCredentials.anonymous("the endpoint is plain http, so an emulator");
        } else {
            credentials = file.map(GcsCredentials::file).orElseGet(GcsCredentials::ambient);
        }
        return new GcsStoreConfig(
                bucket,
                endpoint.uri(),
                credentials,
                StoreRetry.DEFAULT,
                GcsStoreConfig.DEFAULT_CHUNK_SIZE,
                GcsStoreConfig.DEFAULT_PAGE_SIZE);
    }

    private Endpoint endpoint(Optional<URI> flag, Optional<Path> credentialsPath) {
        if (flag.isPresent()) {
            return new Endpoint(
                    normalize(flag.get().toString(), "--store-endpoint-override"), "--store-endpoint-override");
        }
        Optional<Path> endpointFile = credentialsPath
                .map(p -> GcsCredentialFileReader.beside(p, ENDPOINT_FILE))
                .filter(Files::isRegularFile);
        Optional<String> fromFile =
                endpointFile.map(GcsStoreConfigFactory::readEndpointFile).filter(s -> !s.isEmpty());
        if (fromFile.isPresent()) {
            LOG.warn(
                    "the GCS endpoint comes from {}, which etcdbrctl v0.41 deprecates; use --store-endpoint-override",
                    endpointFile.get());
            return new Endpoint(normalize(fromFile.get(), endpointFile.get().toString()), ENDPOINT_FILE);
        }
        Optional<String> fromEnv = envValue(API_ENDPOINT_ENV);
        if (fromEnv.isPresent()) {
            LOG.warn(
                    "the GCS endpoint comes from {}, which etcdbrctl reads only up to v0.32; use "
                            + "--store-endpoint-override",
                    API_ENDPOINT_ENV);
            return new Endpoint(normalize(fromEnv.get(), API_ENDPOINT_ENV), API_ENDPOINT_ENV);
        }
        Optional<String> emulator = envValue(EMULATOR_HOST_ENV);
        if (emulator.isPresent()) {
            String value = emulator.get().contains("://") ? emulator.get() : "http://" + emulator.get();
            return new Endpoint(normalize(value, EMULATOR_HOST_ENV), EMULATOR_HOST_ENV);
        }
        return new Endpoint(URI.create(GcsStoreConfig.DEFAULT_ENDPOINT), "default");
    }

    /** The API root the Java SDK wants: scheme, authority and any path but the Go SDK's {@code /storage/v1}. */
    static URI normalize(String value, String what) {
        String url = value.strip();
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        if (url.endsWith(GO_SDK_PATH)) {
            url = url.substring(0, url.length() - GO_SDK_PATH.length());
        }
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
                throw new URISyntaxException(value, "expected http[s]://host[:port][/storage/v1/]");
            }
            if (uri.getQuery() != null || uri.getFragment() != null) {
                throw new URISyntaxException(value, "a query or fragment has no place in an endpoint");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new WorkerException(
                    ErrorCode.USAGE, "the GCS endpoint from " + what + " is not a URL: " + e.getMessage(), e);
        }
    }

    private static String readEndpointFile(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    "the GCS endpoint file " + file + " cannot be read ("
                            + e.getClass().getSimpleName() + ")",
                    e);
        }
    }

    private Optional<String> envValue(String name) {
        return Optional.ofNullable(env.get(name)).map(String::strip).filter(s -> !s.isEmpty());
    }
}
