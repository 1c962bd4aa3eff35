package io.etcdworkers.store.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.StoreRetry;
import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Azure SDK parses a container URL itself: an authority with a port (or an IP address) is
 * "IP style", the account being the path's first segment; any other takes the account from the
 * host and the container from the path. A URL it would read as another container is refused at
 * once (exit 2) instead of sending requests elsewhere. Nothing is sent: building a store is offline.
 */
class AzureBlobStoreUrlTest {
    private static final String KEY = "c2VjcmV0";

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://acct.blob.core.windows.net/backups",
                "http://127.0.0.1:10000/devstoreaccount1/backups",
                "https://acct.privatelink.blob.core.windows.net/backups",
                "http://localhost:10000/devstoreaccount1/backups",
                "http://azurite.test.svc:10000/devstoreaccount1/backups"
            })
    void urlsTheSdkReadsAsWrittenAreAccepted(String url) {
        try (AzureBlobStore store = new AzureBlobStore(config(url))) {
            assertThat(store.describe()).isEqualTo("abs container \"backups\" at " + url);
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://acct.blob.core.windows.net:443/backups",
                "http://azurite.test.svc/devstoreaccount1/backups"
            })
    void aUrlTheSdkWouldReadAsAnotherContainerIsAUsageError(String url) {
        assertThatThrownBy(() -> new AzureBlobStore(config(url))).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
            assertThat(e.getMessage())
                    .contains(
                            url,
                            "the Azure SDK reads this URL as container \"",
                            "https://<account>.<domain> (no port)");
        });
    }

    private static AzureStoreConfig config(String url) {
        return new AzureStoreConfig(
                "backups", URI.create(url), "acct", KEY, StoreRetry.DEFAULT, AzureStoreConfig.DEFAULT_BLOCK_SIZE);
    }
}
