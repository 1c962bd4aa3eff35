package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.FaultProxy;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.ProviderBucket;
import io.etcdworkers.testsupport.ProviderServers;
import io.etcdworkers.workercli.WorkerContext;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A compaction into an immutable bucket (S3 object lock, ABS immutability, GCS retention) must only
 * add objects. No server here enforces write-once, so every request the compaction sends is
 * recorded by {@link FaultProxy} between the worker and the real server (S3Proxy, Azurite, the GCS
 * emulator): none deletes, and none writes to a name that existed before it started; the writes go
 * to the new full snapshot's name only. (Swift is not recorded: the object URLs come from
 * Keystone's catalog, which a proxy in front of Keystone does not see.)
 */
@Timeout(300)
class ImmutableBucketRequestsIT {
    private static final Set<String> READS = Set.of("GET", "HEAD");

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
    @ValueSource(strings = {"S3", "ABS", "GCS"})
    void aCompactionNeitherDeletesNorOverwritesAnything(String provider) {
        ProviderBucket bucket = servers.bucket(provider);
        String prefix = "immutable-" + provider.toLowerCase(Locale.ROOT);
        bucket.upload(prefix, Fixtures.bucket(Fixtures.V0_41_2, "gzip"));
        Set<String> before = bucket.objects(prefix + "/").keySet();
        String endpointFlag = bucket.flags().stream()
                .filter(f -> f.startsWith("--store-endpoint-override="))
                .findFirst()
                .orElseThrow();
        URI server = URI.create(endpointFlag.substring(endpointFlag.indexOf('=') + 1));
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://" + server.getHost() + ":" + server.getPort()))) {
            Map<String, String> env = new HashMap<>(bucket.env(dir.resolve("secret")));
            env.put("STORAGE_CONTAINER", bucket.container());
            List<String> args = new ArrayList<>(List.of(
                    "compact",
                    "--storage-provider=" + bucket.druidName(),
                    "--store-prefix=" + prefix,
                    "--scratch-dir=" + dir.resolve("scratch"),
                    "--store-endpoint-override=" + proxy.endpoint() + server.getRawPath()));

            CommandRun compact = CommandRun.run(
                    WorkerContext::new,
                    (c, a) -> CompactionWorkerCommand.run(c, a),
                    env,
                    dir,
                    args.toArray(String[]::new));

            assertThat(compact.exitCode()).as(compact.stderr()).isZero();
            String uploaded = compact.result().get("uploaded").get("name").asText();
            List<String> writes = proxy.requests().stream()
                    .filter(r -> !READS.contains(r.substring(0, r.indexOf(' '))))
                    .map(r -> URLDecoder.decode(r, StandardCharsets.UTF_8))
                    .toList();
            assertThat(writes).as("requests that change the bucket").isNotEmpty();
            assertThat(writes).noneMatch(r -> r.startsWith("DELETE "));
            // each write names the new snapshot, or continues its upload session (GCS's resumable upload id)
            assertThat(writes)
                    .allMatch(r -> r.contains(uploaded) || r.contains("upload_id="), "write only the new snapshot");
            for (String existing : before) {
                assertThat(writes).noneMatch(r -> r.contains(existing + "?") || r.endsWith(existing));
            }
            assertThat(bucket.objects(prefix + "/").keySet())
                    .containsAll(before)
                    .hasSize(before.size() + 1);
        }
    }
}
