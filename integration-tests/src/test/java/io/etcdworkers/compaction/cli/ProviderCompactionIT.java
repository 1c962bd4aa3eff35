package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.Processes;
import io.etcdworkers.testsupport.ProviderBucket;
import io.etcdworkers.testsupport.ProviderServers;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Every provider that has a server here (S3, ABS, GCS, Swift, and OSS, ECS, OCS through the S3
 * store; {@link ProviderServers}, each started once for the class): {@code compact} of etcdbrctl
 * v0.41.2's fixture bucket (what etcd-druid ships), copied into it as etcdbrctl writes there,
 * uploads one new full snapshot at the fixture's last revision, the only object it adds, with the
 * size it reports; and a restore from that snapshot alone (every other object deleted, so the old
 * chain cannot hide a bad upload) gives exactly the source's state, leases and etcd's
 * {@code hashkv} included, as a real etcd serves it from the data dir. The bucket comes from
 * {@code STORAGE_CONTAINER} as etcd-druid sets it, the provider in etcd-druid's spelling, the
 * Secret as it mounts it; the output never holds the Secret's secret.
 *
 * <p>The upload is small (about 200 kB: one request on every store); uploads in parts are the store
 * ITs' ({@code S3ObjectStoreIT}, {@code AzureBlobStoreIT}, {@code SwiftObjectStoreIT}). Both
 * compaction engines are {@code CompactV041FixtureIT}'s, on a Local bucket.
 */
@Timeout(300)
class ProviderCompactionIT {
    private static final String FIXTURE = Fixtures.V0_41_2;

    static final List<String> PROVIDERS = ProviderServers.PROVIDERS;

    @TempDir
    static Path serverDir;

    static ProviderServers servers;

    @TempDir
    Path dir;

    @BeforeAll
    static void servers() {
        servers = new ProviderServers(serverDir);
    }

    @AfterAll
    static void stopServers() {
        if (servers != null) {
            servers.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("PROVIDERS")
    void aCompactionsUploadLandsAndRestoresToTheSourceState(String provider) {
        ProviderBucket bucket = servers.bucket(provider);
        // a prefix per provider: OSS, ECS, OCS and S3 share S3Proxy's bucket
        String prefix = "compact-" + provider.toLowerCase(Locale.ROOT);
        bucket.upload(prefix, Fixtures.bucket(FIXTURE, "gzip"));
        Map<String, Long> before = bucket.objects(prefix + "/");
        Map<String, String> env = new HashMap<>(bucket.env(dir.resolve("secret")));
        env.put("STORAGE_CONTAINER", bucket.container());
        List<String> store = new ArrayList<>(List.of(
                "--storage-provider=" + bucket.druidName(),
                "--store-prefix=" + prefix,
                "--scratch-dir=" + dir.resolve("scratch")));
        store.addAll(bucket.flags());

        CommandRun compact = CommandRun.run(
                WorkerContext::new, (c, a) -> CompactionWorkerCommand.run(c, a), env, dir, args("compact", store));

        assertThat(compact.exitCode()).as(compact.stderr()).isZero();
        assertThat(compact.result().get("storageProvider").asText()).isEqualTo(provider);
        JsonNode uploaded = compact.result().get("uploaded");
        String name = uploaded.get("name").asText();
        assertThat(name).startsWith(prefix + "/v2/Full-00000000-00003783-").endsWith(".gz");
        Map<String, Long> expected = new LinkedHashMap<>(before);
        expected.put(name, uploaded.get("size").asLong());
        assertThat(bucket.objects(prefix + "/"))
                .as("the fixture's objects and the upload")
                .containsExactlyInAnyOrderEntriesOf(expected);

        before.keySet().forEach(bucket::delete);
        Path dataDir = dir.resolve("restored");
        store.add("--data-dir=" + dataDir);
        CommandRun restore =
                CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run, env, dir, args("restore", store));

        assertThat(restore.exitCode()).as(restore.stderr()).isZero();
        assertThat(restore.result().get("base").get("name").asText()).isEqualTo(name);
        assertThat(restore.result().get("deltas").asInt()).isZero();
        JsonNode state = ExpectedState.stateJson(FIXTURE);
        assertThat(restore.result().get("metaSha256").asText())
                .isEqualTo(state.get("meta_sha256").asText());
        assertThat(restore.result().get("kvSha256").asText())
                .isEqualTo(state.get("kv_sha256").asText());
        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(state.get("revision").asLong());
        assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys(FIXTURE));
        assertThat(served.leaseIds()).containsExactlyInAnyOrder(Fixtures.V0_41_2_LEASE_A, Fixtures.V0_41_2_LEASE_C);
        assertThat(served.hashKv())
                .isEqualTo(state.get("hashkv_of_a_restore_compacted_at_3783")
                        .get("hash")
                        .asLong());
        assertThat(bucket.objects(prefix + "/").keySet())
                .as("the restore wrote nothing")
                .containsExactly(name);
        assertThat(compact.stdout() + compact.stderr() + restore.stdout() + restore.stderr())
                .doesNotContain(bucket.secret());
        Processes.awaitNoneMentioning(dir);
    }

    private static String[] args(String command, List<String> store) {
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(store);
        return args.toArray(String[]::new);
    }
}
