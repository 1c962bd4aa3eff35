package io.etcdworkers.testsupport;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.ListBlobsOptions;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A container on Azurite as ABS: etcd-druid's JSON Secret with Azurite's published key, the
 * endpoint given as etcdbrctl v0.41 takes it (the account URL).
 */
final class AbsProviderBucket implements ProviderBucket {
    private final AzuriteServer azurite;
    private final String container;

    AbsProviderBucket(AzuriteServer azurite, String container) {
        this.azurite = azurite;
        this.container = container;
    }

    @Override
    public String provider() {
        return "ABS";
    }

    @Override
    public String druidName() {
        return "azure";
    }

    @Override
    public String container() {
        return container;
    }

    @Override
    public List<String> flags() {
        return List.of("--store-endpoint-override=" + azurite.accountUrl());
    }

    @Override
    public Map<String, String> env(Path dir) {
        return AzuriteServer.env(AzuriteServer.KEY, dir);
    }

    @Override
    public String secret() {
        return AzuriteServer.KEY;
    }

    @Override
    public void upload(String prefix, Path localBucket) {
        azurite.upload(container, prefix, localBucket);
    }

    @Override
    public Map<String, Long> objects(String prefix) {
        Map<String, Long> objects = new LinkedHashMap<>();
        for (BlobItem b : blobs().listBlobs(new ListBlobsOptions().setPrefix(prefix), null)) {
            objects.put(b.getName(), b.getProperties().getContentLength());
        }
        return objects;
    }

    @Override
    public void delete(String key) {
        blobs().getBlobClient(key).delete();
    }

    private BlobContainerClient blobs() {
        return azurite.client().getBlobContainerClient(container);
    }
}
