package io.etcdworkers.integration.pod;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.pod.PodExit;
import io.etcdworkers.testsupport.pod.PodRun;
import io.etcdworkers.testsupport.pod.PodTemplate;
import io.etcdworkers.testsupport.pod.Podman;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's restore Jobs, rendered by its command line and run as a kubelet runs their pods,
 * in containers of the image: one member from a Local bucket on a claim, placed on the member's
 * claim with exactly etcdbrctl v0.41.2's state as a real etcd serves it.
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
        String yaml = LauncherJar.withoutCluster(dir).render("restore", "-n", "demo", "--etcd", "etcd-main",
                "--image", podman.image(), "--storage-provider", "Local", "--store-container", "gzip",
                "--store-claim", "backup-bucket", "--target-claim", "etcd-main-etcd-main-0", "--memory-limit", "512Mi",
                "--memory-request", "512Mi");

        PodExit exit = PodRun.of(PodTemplate.single(yaml)).claim("backup-bucket", bucketClaim)
                .claim("etcd-main-etcd-main-0", dataClaim).workDir(dir.resolve("pods")).run(POD_TIMEOUT);

        assertThat(exit.exitCode()).as(exit.describe()).isZero();
        JsonNode result = exit.result();
        assertThat(exit.stdout().strip()).as("stdout holds the result alone").isEqualTo(exit.terminationMessage().strip());
        JsonNode state = ExpectedState.stateJson(FIXTURE);
        assertThat(result.get("outcome").asText()).isEqualTo("succeeded");
        assertThat(result.get("dataDir").asText()).isEqualTo("/var/etcd/data/new.etcd");
        assertThat(result.get("finalRevision").asLong()).isEqualTo(state.get("revision").asLong());
        assertThat(result.get("keys").asLong()).isEqualTo(state.get("keys").asLong());
        assertThat(result.get("kvSha256").asText()).isEqualTo(state.get("kv_sha256").asText());
        assertThat(result.get("metaSha256").asText()).isEqualTo(state.get("meta_sha256").asText());
        Path dataDir = dataClaim.resolve("new.etcd");
        assertThat(Files.getAttribute(dataDir.resolve("member/snap/db"), "unix:uid")).isEqualTo(65532);
        assertThat(dataClaim.resolve("new.etcd.part")).doesNotExist();
        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(state.get("revision").asLong());
        assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys(FIXTURE));
        assertThat(served.leaseIds()).containsExactlyInAnyOrder(Fixtures.V0_41_2_LEASE_A, Fixtures.V0_41_2_LEASE_C);
    }
}
