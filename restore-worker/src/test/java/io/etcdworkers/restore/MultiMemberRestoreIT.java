package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.EtcdInstall;
import io.etcdworkers.testsupport.EtcdTestEnvironment;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.ProcessRun;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three data dirs restored from one bucket, each by its own restore with the same {@code
 * --initial-cluster} and token under its own {@code --name}, form a working three-member etcd
 * cluster on loopback: every member serves the backup's keyspace at its revision, and a write
 * through one member is read from another.
 */
@Timeout(300)
class MultiMemberRestoreIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void threeRestoredMembersFormAClusterThatServesTheBackup() throws Exception {
        int[] peers = freePorts(3);
        int[] clients = freePorts(3);
        String cluster = IntStream.range(0, 3)
                .mapToObj(i -> "m" + i + "=http://127.0.0.1:" + peers[i])
                .collect(Collectors.joining(","));
        List<Path> dataDirs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Path dataDir = dir.resolve("m" + i + "/new.etcd");
            CommandRun run = CommandRun.run(
                    WorkerContext::new,
                    RestoreWorkerCommand::run,
                    Map.of("PATH", System.getenv("PATH")),
                    dir,
                    "restore",
                    "--store-container",
                    Fixtures.bucket("gzip").toString(),
                    "--data-dir",
                    dataDir.toString(),
                    "--scratch-dir",
                    dir.resolve("scratch").toString(),
                    "--name",
                    "m" + i,
                    "--initial-cluster",
                    cluster,
                    "--initial-cluster-token",
                    "restored-3",
                    "--initial-advertise-peer-urls",
                    "http://127.0.0.1:" + peers[i]);
            assertThat(run.exitCode()).as("member %d: %s", i, run.stderr()).isZero();
            dataDirs.add(dataDir);
        }
        EtcdInstall etcd = EtcdTestEnvironment.onPath();
        List<Process> members = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                members.add(new ProcessBuilder(
                                etcd.etcd().toString(),
                                "--name",
                                "m" + i,
                                "--data-dir",
                                dataDirs.get(i).toString(),
                                "--listen-peer-urls",
                                "http://127.0.0.1:" + peers[i],
                                "--listen-client-urls",
                                "http://127.0.0.1:" + clients[i],
                                "--advertise-client-urls",
                                "http://127.0.0.1:" + clients[i])
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("m" + i + ".log").toFile())
                        .start());
            }
            String all = IntStream.range(0, 3)
                    .mapToObj(i -> "http://127.0.0.1:" + clients[i])
                    .collect(Collectors.joining(","));
            awaitHealthy(etcd, all);

            JsonNode list = JSON.readTree(etcdctl(etcd, all, "member", "list", "-w", "json"));
            assertThat(list.get("members"))
                    .extracting(m -> m.get("name").asText())
                    .containsExactlyInAnyOrder("m0", "m1", "m2");
            JsonNode state = ExpectedState.stateJson();
            for (int i = 0; i < 3; i++) {
                JsonNode range = JSON.readTree(
                        etcdctl(etcd, "http://127.0.0.1:" + clients[i], "get", "", "--from-key", "-w", "json"));
                List<ExpectedState.Key> keys = new ArrayList<>();
                range.path("kvs").forEach(kv -> keys.add(ExpectedState.Key.of(kv)));
                ExpectedState.Digest digest = ExpectedState.Digest.of(keys);
                assertThat(range.get("header").get("revision").asLong())
                        .as("member m%d", i)
                        .isEqualTo(3656);
                assertThat(digest.kvSha256())
                        .as("member m%d", i)
                        .isEqualTo(state.get("kv_sha256").asText());
                assertThat(digest.metaSha256())
                        .as("member m%d", i)
                        .isEqualTo(state.get("meta_sha256").asText());
            }
            etcdctl(etcd, "http://127.0.0.1:" + clients[0], "put", "/after-restore", "written-through-m0");
            assertThat(etcdctl(etcd, "http://127.0.0.1:" + clients[2], "get", "/after-restore", "--print-value-only"))
                    .contains("written-through-m0");
        } finally {
            for (Process p : members) {
                p.destroy();
            }
            for (Process p : members) {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor();
                }
            }
        }
    }

    private static void awaitHealthy(EtcdInstall etcd, String endpoints) {
        await("the restored members form a healthy cluster")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .until(() -> ProcessRun.run(
                                        List.of(
                                                etcd.etcdctl().orElseThrow().toString(),
                                                "--endpoints=" + endpoints,
                                                "endpoint",
                                                "health"),
                                        Map.of("ETCDCTL_API", "3"),
                                        TOOL_TIMEOUT)
                                .exitCode()
                        == 0);
    }

    private static String etcdctl(EtcdInstall etcd, String endpoints, String... args) {
        List<String> command = new ArrayList<>(List.of("--endpoints=" + endpoints));
        command.addAll(List.of(args));
        return etcd.run(etcd.etcdctl().orElseThrow(), command.toArray(String[]::new));
    }

    private static int[] freePorts(int n) throws IOException {
        int[] ports = new int[n];
        List<ServerSocket> open = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
                open.add(s);
                ports[i] = s.getLocalPort();
            }
        } finally {
            for (ServerSocket s : open) {
                s.close();
            }
        }
        return ports;
    }
}
