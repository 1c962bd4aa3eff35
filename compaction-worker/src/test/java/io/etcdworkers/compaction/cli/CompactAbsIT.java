package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.restore.workercli.WorkerContext;
import io.etcdworkers.testsupport.AzuriteServer;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction and restore against a real Azure Blob server (Azurite): {@code compact
 * --storage-provider ABS} uploads its new full snapshot as a block blob, and a restore from it
 * alone is exact. Credentials as etcd-druid mounts them ({@code AZURE_APPLICATION_CREDENTIALS_JSON}).
 */
@Timeout(300)
class CompactAbsIT {
    private static final String CONTAINER = "etcd-backups";
    private static final String PREFIX = "etcd-main";

    @TempDir
    Path dir;

    @Test
    void compactsAContainerAndRestoresTheResultFromIt() {
        try (AzuriteServer azurite = AzuriteServer.start(dir.resolve("azurite"))) {
            azurite.createContainer(CONTAINER);
            azurite.upload(CONTAINER, PREFIX, Fixtures.bucket("gzip"));
            Map<String, String> env = new java.util.HashMap<>(AzuriteServer.env(AzuriteServer.KEY, dir.resolve("secret")));
            env.put("STORAGE_CONTAINER", CONTAINER);
            String[] store = {"--storage-provider=azure", "--store-prefix=" + PREFIX,
                "--store-endpoint-override=" + azurite.accountUrl(), "--scratch-dir=" + dir.resolve("scratch")};

            CommandRun compact = CommandRun.run(WorkerContext::new, (c, a) -> CompactionWorkerCommand.run(c, a), env, dir,
                    concat("compact", store));

            assertThat(compact.exitCode()).as(compact.stderr()).isZero();
            assertThat(compact.result().get("storageProvider").asText()).isEqualTo("ABS");
            JsonNode uploaded = compact.result().get("uploaded");
            String name = uploaded.get("name").asText();
            assertThat(name).startsWith(PREFIX + "/v2/Full-00000000-00003656-").endsWith(".gz");
            List<BlobItem> blobs = azurite.client().getBlobContainerClient(CONTAINER)
                    .listBlobs(new ListBlobsOptions().setPrefix(PREFIX + "/"), null).stream().toList();
            assertThat(blobs).hasSize(12).anySatisfy(b -> {
                assertThat(b.getName()).isEqualTo(name);
                assertThat(b.getProperties().getContentLength()).isEqualTo(uploaded.get("size").asLong());
            });

            // Only the new snapshot: a restore that used the old chain could hide a bad upload.
            azurite.client().getBlobContainerClient(CONTAINER).listBlobs().stream()
                    .filter(b -> !b.getName().equals(name))
                    .forEach(b -> azurite.client().getBlobContainerClient(CONTAINER).getBlobClient(b.getName()).delete());
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
            assertThat(compact.stdout() + compact.stderr() + restore.stdout() + restore.stderr())
                    .doesNotContain(AzuriteServer.KEY);
        }
    }

    private static String[] concat(String first, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
