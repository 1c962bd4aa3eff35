package io.etcdworkers.store.gcs;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.WriteChannel;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.testsupport.GcsEmulatorServer;
import java.io.IOException;
import java.nio.ByteBuffer;
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
 * etcd-backup-restore's exclude mark on GCS is the object's custom metadata {@code
 * x-etcd-snapshot-exclude=true} (what {@code gcloud storage objects update --custom-metadata} sets):
 * the listing carries it, on the emulator as on GCS; any other value or key is no mark. (The
 * emulator does not implement a metadata update, so the objects are written with it.)
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class GcsExcludeMarkIT {
    private static final String BUCKET = "marks";

    @TempDir
    static Path serverDir;

    static GcsEmulatorServer emulator;
    static GcsObjectStore store;

    @BeforeAll
    static void startServer() {
        emulator = GcsEmulatorServer.start(serverDir);
        store = new GcsObjectStore(GcsObjectStoreIT.config(BUCKET, emulator.endpoint()));
    }

    @AfterAll
    static void stopServer() {
        if (store != null) {
            store.close();
        }
        if (emulator != null) {
            emulator.close();
        }
    }

    @Test
    void customMetadataTrueMarksAnObjectAndNothingElseDoes() throws IOException {
        // written with the metadata: the emulator does not implement a metadata update (PATCH, 501)
        upload("marked", Map.of(ObjectInfo.EXCLUDE_MARK, "true"));
        upload("True", Map.of(ObjectInfo.EXCLUDE_MARK, "True"));
        upload("one", Map.of(ObjectInfo.EXCLUDE_MARK, "1"));
        upload("other-key", Map.of("x-etcd-snapshot-excluded", "true"));
        upload("none", Map.of());

        List<ObjectInfo> listed = store.list("p/");

        assertThat(listed)
                .filteredOn(o -> o.excludedBy().isPresent())
                .extracting(ObjectInfo::key)
                .containsExactly("p/v2/marked");
        assertThat(listed)
                .filteredOn(o -> o.key().equals("p/v2/marked"))
                .singleElement()
                .satisfies(o -> assertThat(o.excludedBy()).contains("custom metadata x-etcd-snapshot-exclude=true"));
    }

    private static void upload(String name, Map<String, String> metadata) throws IOException {
        try (WriteChannel writer = emulator.client()
                .writer(BlobInfo.newBuilder(BlobId.of(BUCKET, "p/v2/" + name))
                        .setMetadata(metadata)
                        .build())) {
            writer.setChunkSize(GcsEmulatorServer.UPLOAD_CHUNK_SIZE);
            writer.write(ByteBuffer.wrap(new byte[] {1}));
        }
    }
}
