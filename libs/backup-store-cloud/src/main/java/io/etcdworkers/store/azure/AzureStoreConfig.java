package io.etcdworkers.store.azure;

import io.etcdworkers.store.StoreRetry;
import java.net.URI;
import java.util.Objects;

/**
 * Everything an {@link AzureBlobStore} needs: the container's URL, the shared key to sign with,
 * and how hard to try.
 *
 * @param container the container name (also the last path segment of {@code containerUrl})
 * @param containerUrl {@code https://<account>.<domain>/<container>}, or the endpoint override
 *     plus {@code /<container>}
 * @param storageAccount the account the key belongs to
 * @param storageKey the account's shared key, base64 (never printed; not in {@link #toString()})
 * @param retry tries, backoff and the per-try timeout ({@link StoreRetry})
 * @param blockSize the size of each staged block of an upload
 */
public record AzureStoreConfig(
        String container, URI containerUrl, String storageAccount, String storageKey, StoreRetry retry, int blockSize) {
    /** 8 MiB: a 50 MB upload is 7 blocks; memory holds one. Azure allows 50,000 blocks of up to 4000 MiB. */
    public static final int DEFAULT_BLOCK_SIZE = 8 * 1024 * 1024;

    public AzureStoreConfig {
        Objects.requireNonNull(container, "container");
        Objects.requireNonNull(containerUrl, "containerUrl");
        Objects.requireNonNull(storageAccount, "storageAccount");
        Objects.requireNonNull(storageKey, "storageKey");
        Objects.requireNonNull(retry, "retry");
        if (blockSize < 1) {
            throw new IllegalArgumentException("blockSize must be positive: " + blockSize);
        }
    }

    public AzureStoreConfig withRetry(StoreRetry newRetry) {
        return new AzureStoreConfig(container, containerUrl, storageAccount, storageKey, newRetry, blockSize);
    }

    public AzureStoreConfig withBlockSize(int newBlockSize) {
        return new AzureStoreConfig(container, containerUrl, storageAccount, storageKey, retry, newBlockSize);
    }

    /** Without the key. */
    @Override
    public String toString() {
        return "AzureStoreConfig[container=" + container + ", containerUrl=" + containerUrl + ", storageAccount="
                + storageAccount + ", storageKey=***, retry=" + retry + ", blockSize=" + blockSize + "]";
    }
}
