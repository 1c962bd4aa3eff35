package io.etcdworkers.integration.pod;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.testsupport.EtcdInstall;
import io.etcdworkers.testsupport.EtcdTestEnvironment;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.ProcessRun;
import io.etcdworkers.testsupport.pod.PodExit;
import io.etcdworkers.testsupport.pod.PodRun;
import io.etcdworkers.testsupport.pod.PodTemplate;
import io.etcdworkers.testsupport.pod.Podman;
import io.etcdworkers.testsupport.pod.RunningPod;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code restore --member-claims} with loopback peer URLs: the launcher's three Jobs run as their pods
 * in containers of the image, side by side, each placing its member's data dir on its claim; three
 * etcd processes started on those dirs then form one cluster of exactly those members, each serving
 * the fixture's state.
 */
@Timeout(600)
class ClusterRestorePodsIT {
    private static final String FIXTURE = Fixtures.V0_41_2;
    private static final int MEMBERS = 3;
    private static final Duration POD_TIMEOUT = Duration.ofMinutes(4);

    @TempDir
    Path dir;

    private static Podman podman;

    @BeforeAll
    static void runtime() {
        podman = Podman.require();
    }

    @Test
    void threeMembersPlacedByTheirPodsFormACluster() throws Exception {
        Path bucketClaim = Files.createDirectories(dir.resolve("claims/bucket"));
        Fixtures.copyBucket(FIXTURE, "gzip", bucketClaim);
        int[] peer = new int[MEMBERS];
        int[] client = new int[MEMBERS];
        List<String> cluster = new ArrayList<>();
        List<String> claims = new ArrayList<>();
        for (int i = 0; i < MEMBERS; i++) {
            peer[i] = freePort();
            client[i] = freePort();
            cluster.add("etcd-main-" + i + "=http://127.0.0.1:" + peer[i]);
            claims.add("etcd-main-" + i + "=etcd-main-etcd-main-" + i);
        }
        String yaml = LauncherJar.withoutCluster(dir)
                .render(
                        "restore",
                        "-n",
                        "demo",
                        "--etcd",
                        "etcd-main",
                        "--image",
                        podman.image(),
                        "--storage-provider",
                        "Local",
                        "--store-container",
                        "gzip",
                        "--store-claim",
                        "backup-bucket",
                        "--initial-cluster",
                        String.join(",", cluster),
                        "--member-claims",
                        String.join(",", claims),
                        "--memory-limit",
                        "512Mi",
                        "--memory-request",
                        "512Mi");
        List<JsonNode> jobs = PodTemplate.parseYaml(yaml);
        assertThat(jobs).hasSize(MEMBERS);

        List<RunningPod> pods = new ArrayList<>();
        List<Path> dataClaims = new ArrayList<>();
        for (int i = 0; i < MEMBERS; i++) {
            Path claim = Files.createDirectories(dir.resolve("claims/etcd-main-" + i));
            dataClaims.add(claim);
            pods.add(PodRun.of(PodTemplate.of(jobs.get(i)))
                    .claim("backup-bucket", bucketClaim)
                    .claim("etcd-main-etcd-main-" + i, claim)
                    .workDir(dir.resolve("pods"))
                    .start());
        }
        for (RunningPod pod : pods) {
            PodExit exit = pod.awaitExit(POD_TIMEOUT);
            assertThat(exit.exitCode()).as(exit.describe()).isZero();
        }

        JsonNode state = ExpectedState.stateJson(FIXTURE);
        EtcdInstall etcd = EtcdTestEnvironment.onPath();
        List<Process> members = new ArrayList<>();
        try {
            for (int i = 0; i < MEMBERS; i++) {
                ProcessBuilder member = new ProcessBuilder(
                                etcd.etcd().toString(),
                                "--name",
                                "etcd-main-" + i,
                                "--data-dir",
                                dataClaims.get(i).resolve("new.etcd").toString(),
                                "--listen-peer-urls",
                                "http://127.0.0.1:" + peer[i],
                                "--listen-client-urls",
                                "http://127.0.0.1:" + client[i],
                                "--advertise-client-urls",
                                "http://127.0.0.1:" + client[i])
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("etcd-" + i + ".log").toFile());
                // etcd reads ETCD_* variables for every flag not given: none of the test JVM's
                member.environment().clear();
                members.add(member.start());
            }
            String endpoints = String.join(
                    ",",
                    IntStream.of(client).mapToObj(p -> "http://127.0.0.1:" + p).toList());
            Awaitility.await("the three members healthy")
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> etcdctl(etcd, endpoints, "endpoint", "health").exitCode() == 0);

            JsonNode list = new ObjectMapper()
                    .readTree(etcdctl(etcd, endpoints, "member", "list", "-w", "json")
                            .stdout());
            List<String> peerUrls = new ArrayList<>();
            list.get("members")
                    .forEach(m -> peerUrls.add(m.get("name").asText() + "="
                            + m.get("peerURLs").get(0).asText()));
            assertThat(peerUrls).containsExactlyInAnyOrderElementsOf(cluster);
            for (int i = 0; i < MEMBERS; i++) {
                JsonNode status = new ObjectMapper()
                        .readTree(etcdctl(etcd, "http://127.0.0.1:" + client[i], "endpoint", "status", "-w", "json")
                                .stdout());
                assertThat(status.get(0)
                                .get("Status")
                                .get("header")
                                .get("revision")
                                .asLong())
                        .as("member %d", i)
                        .isEqualTo(state.get("revision").asLong());
            }
            // a read through the cluster (quorum): the response counts every key under the prefix
            ProcessRun get =
                    etcdctl(etcd, endpoints, "get", "/", "--prefix", "--keys-only", "--limit", "1", "-w", "json");
            assertThat(get.exitCode()).as(get.stderr()).isZero();
            long underSlash = ExpectedState.keys(FIXTURE).stream()
                    .filter(k -> Base64.getDecoder().decode(k.key())[0] == '/')
                    .count();
            assertThat(underSlash).isEqualTo(state.get("keys").asLong());
            assertThat(new ObjectMapper().readTree(get.stdout()).get("count").asLong())
                    .isEqualTo(underSlash);
        } finally {
            for (Process member : members) {
                member.destroy();
                if (!member.waitFor(30, TimeUnit.SECONDS)) {
                    member.destroyForcibly().waitFor();
                }
            }
        }
    }

    private static ProcessRun etcdctl(EtcdInstall etcd, String endpoints, String... args) {
        List<String> command =
                new ArrayList<>(List.of(etcd.etcdctl().orElseThrow().toString(), "--endpoints", endpoints));
        command.addAll(List.of(args));
        return ProcessRun.run(
                command, Map.of("ETCDCTL_API", "3", "PATH", System.getenv("PATH")), Duration.ofSeconds(30));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
