package io.etcdworkers.store.s3;

import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * The SDK's default credentials chain, used when no credentials file and no {@code AWS_*} keys
 * are given. When the chain finds nothing it throws {@link NoCredentialsFoundException}, so the
 * worker reports a configuration error (exit 2) that says where it looked, instead of the
 * retryable "store unavailable" the SDK's plain client exception would map to.
 */
final class CredentialsSearch implements AwsCredentialsProvider, SdkAutoCloseable {
    /** Where a worker looks for S3 credentials, in order; for the message. */
    static final String WHERE = "the file named by " + S3StoreConfigFactory.CREDENTIALS_JSON_ENV + ", the directory "
            + "named by " + S3StoreConfigFactory.CREDENTIALS_DIR_ENV + " (etcd-druid mounts the backup Secret there), "
            + "AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, then the SDK's chain (web identity token, "
            + "~/.aws profile, container and instance roles)";

    private final AwsCredentialsProvider chain;

    CredentialsSearch(AwsCredentialsProvider chain) {
        this.chain = Objects.requireNonNull(chain, "chain");
    }

    @Override
    public AwsCredentials resolveCredentials() {
        try {
            return chain.resolveCredentials();
        } catch (SdkClientException e) {
            throw new NoCredentialsFoundException(e);
        }
    }

    @Override
    public void close() {
        if (chain instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                // Closing releases the chain's HTTP clients; there is nothing to report at exit.
            }
        }
    }

    @Override
    public String toString() {
        return "CredentialsSearch(default chain)";
    }
}
