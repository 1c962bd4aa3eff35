package io.etcdworkers.store.azure;

import com.azure.core.http.HttpClient;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.http.rest.PagedResponse;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobListDetails;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.store.StoreRetry;
import io.etcdworkers.store.azure.AzureErrorTranslator.Target;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An {@link ObjectStore} over one Azure Blob Storage container (or Azurite), signed with the
 * account's shared key, on the JDK's HTTP client (the SDK's default Netty client would clash
 * with fabric8's Netty). Listings walk every page; a read is one GET (ranged for
 * {@link #openRange}) whose body streams and is length-checked ({@link AzureBlobDownload});
 * writes are {@link AzureBlockWriter}s. Every SDK failure, after the SDK's retries,
 * becomes a {@link WorkerException} (see {@link AzureErrorTranslator}).
 *
 * <p>Reads and listings may run concurrently (the SDK client is thread-safe); one writer is not.
 */
public final class AzureBlobStore implements ObjectStore {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration MAX_SOCKET_TIMEOUT = Duration.ofSeconds(60);

    private final AzureStoreConfig config;
    private final BlobContainerClient container;
    private final AzureErrorTranslator errors;
    private final AzureBlobDownload download;

    /** Builds the SDK client; no request is sent until the first call. */
    public AzureBlobStore(AzureStoreConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.errors = new AzureErrorTranslator(describe());
        this.container = new BlobContainerClientBuilder()
                .endpoint(config.containerUrl().toString())
                .credential(new StorageSharedKeyCredential(config.storageAccount(), config.storageKey()))
                .httpClient(httpClient(config.retry()))
                .retryOptions(retryOptions(config.retry()))
                .buildClient();
        checkUrlUnderstood();
        this.download = new AzureBlobDownload(
                container.getHttpPipeline(), container.getServiceVersion().getVersion(), errors, describe());
    }

    @Override
    public String describe() {
        return "abs container \"" + config.container() + "\" at " + config.containerUrl();
    }

    @Override
    public List<ObjectInfo> list(String keyPrefix) {
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        List<ObjectInfo> result = new ArrayList<>();
        try {
            // with each blob's index tags, where etcdbrctl reads its exclude mark (not the metadata)
            ListBlobsOptions options = new ListBlobsOptions()
                    .setPrefix(keyPrefix.isEmpty() ? null : keyPrefix)
                    .setDetails(new BlobListDetails().setRetrieveTags(true));
            // By page, so that each page's request is retried on its own and none is held twice.
            for (PagedResponse<BlobItem> page :
                    container.listBlobs(options, null).iterableByPage()) {
                for (BlobItem item : page.getValue()) {
                    Long size = item.getProperties() == null
                            ? null
                            : item.getProperties().getContentLength();
                    result.add(new ObjectInfo(
                                    item.getName(),
                                    size == null ? 0 : size,
                                    item.getProperties() == null
                                                    || item.getProperties().getLastModified() == null
                                            ? Instant.EPOCH
                                            : item.getProperties()
                                                    .getLastModified()
                                                    .toInstant())
                            .excludedWhen(ObjectInfo.marked(item.getTags()), "blob index tag"));
                }
            }
        } catch (RuntimeException e) {
            throw errors.translate(e, "listing \"" + keyPrefix + "\"", Target.CONTAINER);
        }
        return result;
    }

    @Override
    public InputStream open(String key) {
        Objects.requireNonNull(key, "key");
        return download.open(blob(key).getBlobUrl(), key, Optional.empty());
    }

    @Override
    public InputStream openRange(String key, long offset, long length) {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("negative range " + offset + "+" + length + " of " + key);
        }
        if (length == 0) {
            // "bytes=a-(a-1)" is no valid range; still fail as a real read would if the blob is gone.
            properties(key);
            return InputStream.nullInputStream();
        }
        return download.open(blob(key).getBlobUrl(), key, Optional.of(new long[] {offset, length}));
    }

    @Override
    public ObjectWriter create(String key) {
        Objects.requireNonNull(key, "key");
        return new AzureBlockWriter(container.getBlobClient(key).getBlockBlobClient(), key, config.blockSize(), errors);
    }

    @Override
    public void close() {
        // The SDK's sync client holds no resources of its own; the JDK client's threads are daemons.
    }

    private void properties(String key) {
        try {
            blob(key).getProperties();
        } catch (RuntimeException e) {
            throw errors.translate(e, "reading \"" + key + "\"", Target.BLOB);
        }
    }

    private BlobClient blob(String key) {
        return container.getBlobClient(key);
    }

    /**
     * The SDK parses the URL itself: an authority with a port or an IP address is "IP style"
     * (account and container from the path, as Azurite serves them), any other gives the account
     * in the host and the container in the path. Refuse a URL it would read differently (such as
     * {@code https://acct.blob.core.windows.net:443/c}) instead of writing elsewhere.
     */
    private void checkUrlUnderstood() {
        String url = container.getBlobContainerUrl();
        if (!config.container().equals(container.getBlobContainerName())
                || !stripSlash(url).equals(stripSlash(config.containerUrl().toString()))) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    describe() + ": the Azure SDK reads this URL as container \""
                            + container.getBlobContainerName() + "\" at " + url + "; give --store-endpoint-override as "
                            + "https://<account>.<domain> (no port) or http://<host>:<port>/<account>");
        }
    }

    private static String stripSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    private static HttpClient httpClient(StoreRetry retry) {
        Duration socket =
                retry.tryTimeout().compareTo(MAX_SOCKET_TIMEOUT) < 0 ? retry.tryTimeout() : MAX_SOCKET_TIMEOUT;
        // HTTP/1.1: the JDK client would otherwise try an h2c upgrade on every plain-http request.
        return new JdkHttpClientBuilder(
                        java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1))
                .connectionTimeout(CONNECT_TIMEOUT)
                .responseTimeout(socket)
                .readTimeout(socket)
                .writeTimeout(socket)
                .build();
    }

    private static RequestRetryOptions retryOptions(StoreRetry retry) {
        return new RequestRetryOptions(
                RetryPolicyType.EXPONENTIAL,
                retry.maxTries(),
                retry.tryTimeout(),
                retry.baseDelay(),
                retry.maxDelay(),
                null);
    }
}
