package io.etcdworkers.integration.pod;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.S3Buckets;
import io.etcdworkers.testsupport.S3ProxyServer;
import io.etcdworkers.testsupport.pod.PodExit;
import io.etcdworkers.testsupport.pod.PodRun;
import io.etcdworkers.testsupport.pod.PodTemplate;
import io.etcdworkers.testsupport.pod.Podman;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's restore Jobs, rendered by its command line and run as a kubelet runs their pods,
 * in containers of the image: one member from a Local bucket on a claim, placed on the member's
 * claim, and one from S3Proxy over the host's loopback with the Secret's files, each placed on the
 * member's claim with exactly etcdbrctl v0.41.2's state as a real etcd serves it.
 */
@Timeout(300)
class RestorePodsIT {
    private static final String FIXTURE = Fixtures.V0_41_2;
    private static final Duration POD_TIMEOUT = Duration.ofMinutes(3);

    @TempDir
    Path dir;

    private static Podman podman;

    @BeforeAll
    static void runtime() {
        podman = Podman.require();
    }

    @Test
    void oneMemberFromALocalBucketIsPlacedWithTheSourceState() throws IOException {
        Path bucketClaim = Files.createDirectories(dir.resolve("claims/bucket"));
        Fixtures.copyBucket(FIXTURE, "gzip", bucketClaim);
        Path dataClaim = Files.createDirectories(dir.resolve("claims/etcd-main-0"));
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
                        "--target-claim",
                        "etcd-main-etcd-main-0",
                        "--memory-limit",
                        "512Mi",
                        "--memory-request",
                        "512Mi");

        PodExit exit = PodRun.of(PodTemplate.single(yaml))
                .claim("backup-bucket", bucketClaim)
                .claim("etcd-main-etcd-main-0", dataClaim)
                .workDir(dir.resolve("pods"))
                .run(POD_TIMEOUT);

        assertPlacedWithTheSourceState(exit, dataClaim);
    }

    @Test
    void oneMemberFromS3ProxyOverLoopbackIsPlacedWithTheSourceState() throws IOException {
        try (S3ProxyServer s3 = S3ProxyServer.start(dir)) {
            s3.createBucket("backups");
            S3Buckets.upload(s3, "backups", "etcd-main", Fixtures.bucket(FIXTURE, "gzip"));
            Path dataClaim = Files.createDirectories(dir.resolve("claims/etcd-main-0"));
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
                            "S3",
                            "--store-container",
                            "backups",
                            "--store-prefix",
                            "etcd-main",
                            "--store-secret",
                            "etcd-backup",
                            "--store-endpoint-override",
                            s3.endpoint().toString(),
                            "--target-claim",
                            "etcd-main-etcd-main-0",
                            "--memory-limit",
                            "512Mi",
                            "--memory-request",
                            "512Mi");
            // the Secret as etcd-druid's S3 Secret: one key per field, mounted as files
            Map<String, byte[]> secret = Map.of(
                    "accessKeyID",
                    bytes(s3.identity()),
                    "secretAccessKey",
                    bytes(s3.credential()),
                    "region",
                    bytes(s3.region().id()),
                    "s3ForcePathStyle",
                    bytes("true"));

            PodExit exit = PodRun.of(PodTemplate.single(yaml))
                    .secret("etcd-backup", secret)
                    .claim("etcd-main-etcd-main-0", dataClaim)
                    .workDir(dir.resolve("pods"))
                    .run(POD_TIMEOUT);

            assertPlacedWithTheSourceState(exit, dataClaim);
            assertThat(exit.stderr() + exit.stdout()).doesNotContain(s3.credential());
        }
    }

    private void assertPlacedWithTheSourceState(PodExit exit, Path dataClaim) throws IOException {
        assertThat(exit.exitCode()).as(exit.describe()).isZero();
        JsonNode result = exit.result();
        assertThat(exit.stdout().strip())
                .as("stdout holds the result alone")
                .isEqualTo(exit.terminationMessage().strip());
        JsonNode state = ExpectedState.stateJson(FIXTURE);
        assertThat(result.get("outcome").asText()).isEqualTo("succeeded");
        assertThat(result.get("dataDir").asText()).isEqualTo("/var/etcd/data/new.etcd");
        assertThat(result.get("finalRevision").asLong())
                .isEqualTo(state.get("revision").asLong());
        assertThat(result.get("keys").asLong()).isEqualTo(state.get("keys").asLong());
        assertThat(result.get("kvSha256").asText())
                .isEqualTo(state.get("kv_sha256").asText());
        assertThat(result.get("metaSha256").asText())
                .isEqualTo(state.get("meta_sha256").asText());
        Path dataDir = dataClaim.resolve("new.etcd");
        assertThat(Files.getAttribute(dataDir.resolve("member/snap/db"), "unix:uid"))
                .isEqualTo(65532);
        assertThat(dataClaim.resolve("new.etcd.part")).doesNotExist();
        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(state.get("revision").asLong());
        assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys(FIXTURE));
        assertThat(served.leaseIds()).containsExactlyInAnyOrder(Fixtures.V0_41_2_LEASE_A, Fixtures.V0_41_2_LEASE_C);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
