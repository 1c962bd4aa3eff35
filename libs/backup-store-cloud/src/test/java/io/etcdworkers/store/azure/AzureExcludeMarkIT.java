package io.etcdworkers.store.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobContainerClient;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.StoreRetry;
import io.etcdworkers.testsupport.AzuriteServer;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * etcd-backup-restore's exclude mark on ABS is a blob index tag {@code x-etcd-snapshot-exclude=true}
 * (what {@code az storage blob tag set} sets), read from the listing ({@code include=tags}), not
 * the blob's metadata (whose names cannot even hold a '-'): Azurite keeps and lists blob index
 * tags as Azure does.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class AzureExcludeMarkIT {
    private static final String CONTAINER = "marks";

    @TempDir
    static Path serverDir;

    static AzuriteServer azurite;
    static BlobContainerClient blobs;
    static AzureBlobStore store;

    @BeforeAll
    static void startServer() {
        azurite = AzuriteServer.start(serverDir);
        blobs = azurite.createContainer(CONTAINER);
        store = new AzureBlobStore(new AzureStoreConfig(
                CONTAINER,
                URI.create(azurite.accountUrl() + "/" + CONTAINER),
                AzuriteServer.ACCOUNT,
                AzuriteServer.KEY,
                StoreRetry.DEFAULT,
                AzureStoreConfig.DEFAULT_BLOCK_SIZE));
    }

    @AfterAll
    static void stopServer() {
        if (azurite != null) {
            azurite.close();
        }
    }

    @Test
    void aBlobIndexTagTrueMarksABlobAndOtherValuesDoNot() {
        for (String name : List.of("tagged", "tagged-True", "none")) {
            blobs.getBlobClient("p/v2/" + name).upload(BinaryData.fromBytes(new byte[] {1}));
        }
        blobs.getBlobClient("p/v2/tagged").setTags(Map.of(ObjectInfo.EXCLUDE_MARK, "true"));
        blobs.getBlobClient("p/v2/tagged-True").setTags(Map.of(ObjectInfo.EXCLUDE_MARK, "True"));
        // metadata cannot carry the mark on ABS at all: its names are C# identifiers, without '-'
        assertThatThrownBy(() -> blobs.getBlobClient("p/v2/none").setMetadata(Map.of(ObjectInfo.EXCLUDE_MARK, "true")))
                .hasMessageContaining("InvalidMetadata");

        List<ObjectInfo> listed = store.list("p/");

        assertThat(listed).hasSize(3);
        assertThat(listed)
                .filteredOn(o -> o.excludedBy().isPresent())
                .singleElement()
                .satisfies(o -> {
                    assertThat(o.key()).isEqualTo("p/v2/tagged");
                    assertThat(o.excludedBy()).contains("blob index tag x-etcd-snapshot-exclude=true");
                });
    }
}
