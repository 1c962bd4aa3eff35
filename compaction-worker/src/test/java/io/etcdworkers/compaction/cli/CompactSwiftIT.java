package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.restore.workercli.WorkerContext;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.SwiftClient;
import io.etcdworkers.testsupport.SwiftServer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction and restore against Debian's Swift with Keystone v3 ({@link SwiftServer}):
 * {@code compact --storage-provider openstack} uploads its new full snapshot (about 1 MB: one PUT;
 * segmented uploads are {@code SwiftObjectStoreIT}'s), and a restore from it alone is exact. The
 * Secret is laid out as etcd-druid mounts it ({@code OPENSTACK_APPLICATION_CREDENTIALS}); the
 * container comes from {@code STORAGE_CONTAINER}, the account from Keystone's catalog.
 */
@Timeout(300)
class CompactSwiftIT {
    private static final String CONTAINER = "etcd-backups";
    private static final String PREFIX = "etcd-main";

    @TempDir
    Path dir;

    @Test
    void compactsABucketAndRestoresTheResultFromIt() {
        try (SwiftServer swift = SwiftServer.start(dir.resolve("swift"))) {
            SwiftClient client = swift.client();
            client.createContainer(CONTAINER);
            client.upload(CONTAINER, PREFIX, Fixtures.bucket("gzip"));
            Map<String, String> env = new HashMap<>(swift.env(dir.resolve("var/etcd-backup")));
            env.put("STORAGE_CONTAINER", CONTAINER);
            String[] store = {"--storage-provider=openstack", "--store-prefix=" + PREFIX,
                "--scratch-dir=" + dir.resolve("scratch")};

            CommandRun compact = CommandRun.run(WorkerContext::new, (c, a) -> CompactionWorkerCommand.run(c, a), env, dir,
                    concat("compact", store));

            assertThat(compact.exitCode()).as(compact.stderr()).isZero();
            assertThat(compact.result().get("storageProvider").asText()).isEqualTo("Swift");
            JsonNode uploaded = compact.result().get("uploaded");
            String name = uploaded.get("name").asText();
            assertThat(name).startsWith(PREFIX + "/v2/Full-00000000-00003656-").endsWith(".gz");
            List<String> objects = client.keys(CONTAINER, PREFIX + "/");
            assertThat(objects).hasSize(12).contains(name);
            assertThat(swift.size(CONTAINER, name)).contains(uploaded.get("size").asLong());

            // Only the new snapshot: a restore that used the old chain could hide a bad upload.
            objects.stream().filter(k -> !k.equals(name)).forEach(k -> client.delete(CONTAINER, k));
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
            assertThat(client.keys(CONTAINER, PREFIX + "/")).containsExactly(name);
        }
    }

    private static String[] concat(String first, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
