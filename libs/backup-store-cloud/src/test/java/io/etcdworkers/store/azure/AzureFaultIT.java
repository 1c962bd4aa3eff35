package io.etcdworkers.store.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.util.BinaryData;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.store.StoreRetry;
import io.etcdworkers.testsupport.AzuriteServer;
import io.etcdworkers.testsupport.FaultProxy;
import io.etcdworkers.testsupport.FaultProxy.Fault;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AzureBlobStore} against Azurite behind {@link FaultProxy}: transient 5xx are retried by
 * the SDK, lasting ones are {@code STORE_UNAVAILABLE} naming the blob, and a body cut short in
 * transit is {@code TRUNCATED_OBJECT}, never taken for the blob.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class AzureFaultIT {
    private static final String CONTAINER = "faults";
    private static final byte[] CONTENT = random(3_000_000);
    /** The SDK sends the blob name's slashes encoded. */
    private static final String BLOB_PATH = ".*/etcd%2Fv2%2Fblob([?].*)?";

    @TempDir
    static Path serverDir;

    static AzuriteServer azurite;
    static FaultProxy proxy;
    static AzureBlobStore store;

    @BeforeAll
    static void start() {
        azurite = AzuriteServer.start(serverDir);
        azurite.createContainer(CONTAINER).getBlobClient("etcd/v2/blob").upload(BinaryData.fromBytes(CONTENT));
        URI root = URI.create(azurite.accountUrl().toString().replace("/" + AzuriteServer.ACCOUNT, ""));
        proxy = FaultProxy.start(root);
        store = new AzureBlobStore(new AzureStoreConfig(
                CONTAINER,
                URI.create(proxy.endpoint() + "/" + AzuriteServer.ACCOUNT + "/" + CONTAINER),
                AzuriteServer.ACCOUNT,
                AzuriteServer.KEY,
                new StoreRetry(4, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofSeconds(10)),
                AzureStoreConfig.DEFAULT_BLOCK_SIZE));
    }

    private int faultedBefore;

    @org.junit.jupiter.api.BeforeEach
    void count() {
        faultedBefore = proxy.faulted().size();
    }

    @AfterEach
    void disarm() {
        proxy.clear();
    }

    private int faulted() {
        return proxy.faulted().size() - faultedBefore;
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
        if (azurite != null) {
            azurite.close();
        }
    }

    @Test
    void transient503sOnListingAndReadsAreRetried() throws IOException {
        proxy.inject(Fault.status(503), "GET", ".*comp=list.*", 2);
        proxy.inject(Fault.status(500), "GET", BLOB_PATH, 2);

        assertThat(store.list("etcd/")).extracting(ObjectInfo::key).containsExactly("etcd/v2/blob");
        try (InputStream in = store.open("etcd/v2/blob")) {
            assertThat(in.readAllBytes()).isEqualTo(CONTENT);
        }
        assertThat(faulted()).isEqualTo(4);
    }

    @Test
    void aStoreThatKeepsAnswering503IsUnavailableNamingTheBlob() {
        proxy.inject(Fault.status(503), "GET", BLOB_PATH, FaultProxy.ALWAYS);

        assertThatThrownBy(() -> {
                    try (InputStream in = store.open("etcd/v2/blob")) {
                        in.readAllBytes();
                    }
                })
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
                    assertThat(e.getMessage()).contains("\"etcd/v2/blob\"", CONTAINER, "HTTP 503", "after retries");
                });
        assertThat(faulted()).isEqualTo(4);
    }

    @Test
    void aListingThatKeepsFailingIsUnavailable() {
        proxy.inject(Fault.status(500), "GET", ".*comp=list.*", FaultProxy.ALWAYS);

        assertThatThrownBy(() -> store.list("etcd/")).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
            assertThat(e.getMessage()).contains("listing \"etcd/\"", "HTTP 500");
        });
    }

    @Test
    void aBodyCutShortInTransitIsATruncatedObjectNeverTakenForTheBlob() throws IOException {
        proxy.inject(Fault.cutBody(), "GET", BLOB_PATH, 1);

        assertThatThrownBy(() -> {
                    try (InputStream in = store.open("etcd/v2/blob")) {
                        in.readAllBytes();
                    }
                })
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.TRUNCATED_OBJECT);
                    assertThat(e.getMessage()).contains("\"etcd/v2/blob\"", "of " + CONTENT.length + " bytes");
                });
        assertThat(faulted()).isEqualTo(1);
        // The SDK cannot retry a body it already handed over; reading again (as the restore does) works.
        try (InputStream in = store.open("etcd/v2/blob")) {
            assertThat(in.readAllBytes()).isEqualTo(CONTENT);
        }
    }

    @Test
    void anUploadWhoseBlocksKeepFailingIsUnavailableAndLeavesNothing() {
        proxy.inject(Fault.status(503), "PUT", ".*comp=block.*", FaultProxy.ALWAYS);

        assertThatThrownBy(() -> {
                    try (ObjectWriter writer = store.create("etcd/v2/new")) {
                        writer.out().write(random(AzureStoreConfig.DEFAULT_BLOCK_SIZE + 10));
                        writer.commit();
                    }
                })
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
                    assertThat(e.getMessage()).contains("staging block 1 of \"etcd/v2/new\"", "HTTP 503");
                });
        proxy.clear();
        assertThat(store.list("etcd/v2/new")).isEmpty();
    }

    private static byte[] random(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }
}
