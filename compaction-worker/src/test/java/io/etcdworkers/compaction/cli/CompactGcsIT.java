package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.Storage;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.restore.workercli.WorkerContext;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.GcsEmulatorServer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction and restore against a server of the GCS JSON API (firebase-tools' emulator):
 * {@code compact --storage-provider gcp} uploads its new full snapshot through a resumable
 * upload, and a restore from it alone is exact. The Secret is laid out as etcd-druid mounts it
 * ({@code GOOGLE_APPLICATION_CREDENTIALS}); the bucket comes from {@code STORAGE_CONTAINER}.
 * The emulator finalizes an upload with its first chunk, so the workers' 16 MiB chunks must
 * hold the whole snapshot (it is about 1 MB): uploads of several chunks are not tested here.
 */
@Timeout(300)
class CompactGcsIT {
    private static final String BUCKET = "etcd-backups";
    private static final String PREFIX = "etcd-main";

    @TempDir
    Path dir;

    @Test
    void compactsABucketAndRestoresTheResultFromIt() {
        try (GcsEmulatorServer emulator = GcsEmulatorServer.start(dir.resolve("emulator"))) {
            emulator.upload(BUCKET, PREFIX, Fixtures.bucket("gzip"));
            Map<String, String> env = new HashMap<>(GcsEmulatorServer.env(dir.resolve("var/.gcp")));
            env.put("STORAGE_CONTAINER", BUCKET);
            String[] store = {"--storage-provider=gcp", "--store-prefix=" + PREFIX,
                "--store-endpoint-override=" + emulator.endpoint(), "--scratch-dir=" + dir.resolve("scratch")};

            CommandRun compact = CommandRun.run(WorkerContext::new, (c, a) -> CompactionWorkerCommand.run(c, a), env, dir,
                    concat("compact", store));

            assertThat(compact.exitCode()).as(compact.stderr()).isZero();
            assertThat(compact.result().get("storageProvider").asText()).isEqualTo("GCS");
            JsonNode uploaded = compact.result().get("uploaded");
            String name = uploaded.get("name").asText();
            assertThat(name).startsWith(PREFIX + "/v2/Full-00000000-00003656-").endsWith(".gz");
            Storage gcs = emulator.client();
            List<Blob> objects = listAll(gcs);
            assertThat(objects).hasSize(12).anySatisfy(b -> {
                assertThat(b.getName()).isEqualTo(name);
                assertThat(b.getSize()).isEqualTo(uploaded.get("size").asLong());
            });

            // Only the new snapshot: a restore that used the old chain could hide a bad upload.
            objects.stream().filter(b -> !b.getName().equals(name)).forEach(b -> gcs.delete(b.getBlobId()));
            Path dataDir = dir.resolve("restored");
            CommandRun restore = CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run, env, dir,
                    concat("restore", concat("--data-dir=" + dataDir, store)));

            assertThat(restore.exitCode()).as(restore.stderr()).isZero();
            assertThat(restore.result().get("base").get("name").asText()).isEqualTo(name);
            assertThat(restore.result().get("deltas").asInt()).isZero();
            JsonNode state = ExpectedState.stateJson();
            assertThat(restore.result().get("metaSha256").asText()).isEqualTo(state.get("meta_sha256").asText());
            assertThat(restore.result().get("kvSha256").asText()).isEqualTo(state.get("kv_sha256").asText());
            ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
            assertThat(served.revision()).isEqualTo(3656);
            assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys());
            assertThat(listAll(gcs)).extracting(Blob::getName).containsExactly(name);
        }
    }

    private static List<Blob> listAll(Storage gcs) {
        return java.util.stream.StreamSupport.stream(gcs.list(BUCKET, Storage.BlobListOption.prefix(PREFIX + "/"))
                .iterateAll().spliterator(), false).toList();
    }

    private static String[] concat(String first, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
