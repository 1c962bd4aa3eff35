package io.etcdworkers.store.gcs;

import com.google.api.gax.retrying.RetrySettings;
import com.google.auth.Credentials;
import com.google.auth.oauth2.ExternalAccountCredentials;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.http.HttpTransportOptions;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import com.google.cloud.storage.StorageRetryStrategy;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.StoreRetry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;

/**
 * Builds the SDK client of a {@link GcsObjectStore}: the JSON API over HTTP (the SDK's default
 * transport on the JDK's {@code HttpURLConnection}; its gRPC transport is never used), with the
 * store's retries and timeouts, and the credentials the config names loaded.
 */
final class GcsClientFactory {
    /**
     * Sent nowhere: object reads, writes and listings name no project, but the SDK wants one
     * and would otherwise look for it on the metadata server.
     */
    static final String NO_PROJECT = "etcd-workers-no-project";
    /** Where a worker looks for ambient GCS credentials, in order; for the message. */
    static final String AMBIENT_WHERE = "GOOGLE_APPLICATION_CREDENTIALS (etcd-druid mounts the backup Secret at "
            + "/var/.gcp/serviceaccount.json), then the SDK's application default credentials: gcloud's "
            + "application_default_credentials.json, then the metadata server (GKE workload identity, the node's "
            + "service account)";

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private GcsClientFactory() {}

    static Storage storage(GcsStoreConfig config) {
        GcsCredentials identity = config.credentials();
        int readTimeout =
                (int) Math.min(Integer.MAX_VALUE, config.retry().tryTimeout().toMillis());
        return StorageOptions.http()
                .setHost(config.endpoint().toString())
                .setProjectId(identity.file().map(GcsCredentialFile::projectId).orElse(NO_PROJECT))
                .setCredentials(credentials(identity))
                .setRetrySettings(retrySettings(config.retry()))
                // Every call the store makes is idempotent but one: opening a resumable upload
                // session, which, retried, leaves at most an unused session behind.
                .setStorageRetryStrategy(StorageRetryStrategy.getUniformStorageRetryStrategy())
                .setTransportOptions(HttpTransportOptions.newBuilder()
                        .setConnectTimeout((int) CONNECT_TIMEOUT.toMillis())
                        .setReadTimeout(readTimeout)
                        .build())
                .build()
                .getService();
    }

    /** The SDK credentials for {@code identity}; a file is loaded by the loader of its checked type. */
    static Credentials credentials(GcsCredentials identity) {
        return switch (identity.kind()) {
            case ANONYMOUS -> NoCredentials.getInstance();
            case FILE -> load(identity.file().orElseThrow());
            case AMBIENT -> ambient();
        };
    }

    private static Credentials load(GcsCredentialFile file) {
        try (InputStream in = Files.newInputStream(file.source())) {
            return switch (file.type()) {
                case SERVICE_ACCOUNT -> ServiceAccountCredentials.fromStream(in);
                case EXTERNAL_ACCOUNT -> ExternalAccountCredentials.fromStream(in);
            };
        } catch (IOException | RuntimeException e) {
            // Not the SDK's message: a key it cannot parse may be quoted in it.
            throw new WorkerException(
                    ErrorCode.USAGE,
                    "GCS credentials " + file.source() + " (" + file.type().json()
                            + ") could not be loaded by Google's SDK ("
                            + e.getClass().getSimpleName() + "); check "
                            + (file.type() == GcsCredentialFile.Type.SERVICE_ACCOUNT
                                    ? "private_key and client_email"
                                    : "the token file beside it"),
                    e);
        }
    }

    private static Credentials ambient() {
        try {
            return GoogleCredentials.getApplicationDefault();
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.USAGE, "no GCS credentials found; looked in " + AMBIENT_WHERE, e);
        }
    }

    private static RetrySettings retrySettings(StoreRetry retry) {
        // Long enough for every try to run into its own timeout and every backoff to be taken.
        Duration total = retry.tryTimeout().plus(retry.maxDelay()).multipliedBy(retry.maxTries());
        return RetrySettings.newBuilder()
                .setMaxAttempts(retry.maxTries())
                .setInitialRetryDelayDuration(retry.baseDelay())
                .setRetryDelayMultiplier(2.0)
                .setMaxRetryDelayDuration(retry.maxDelay())
                .setInitialRpcTimeoutDuration(retry.tryTimeout())
                .setRpcTimeoutMultiplier(1.0)
                .setMaxRpcTimeoutDuration(retry.tryTimeout())
                .setTotalTimeoutDuration(total)
                .build();
    }
}
