package io.etcdworkers.integration.pod;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.ProcessRun;
import io.etcdworkers.testsupport.pod.PodExit;
import io.etcdworkers.testsupport.pod.PodRun;
import io.etcdworkers.testsupport.pod.PodTemplate;
import io.etcdworkers.testsupport.pod.Podman;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code restore --memory-limit=auto --wait} against the mock API server, its pods run in containers
 * of the image: the sizing Job the launcher creates reads the backup and names a limit, the restore
 * Job it then creates carries that limit and places the fixture's state inside it, and the launcher
 * reports the run as succeeded.
 */
@Timeout(600)
class SizedRestorePodsIT {
    private static final String FIXTURE = Fixtures.V0_41_2;
    private static final Duration POD_TIMEOUT = Duration.ofMinutes(3);
    private static final Pattern SIZED =
            Pattern.compile("sized from the backup: .*--memory-limit=(\\d+Mi) --heap-percent=(\\d+)");

    @TempDir
    Path dir;

    private static Podman podman;

    @BeforeAll
    static void runtime() {
        podman = Podman.require();
    }

    @Test
    void theSizingJobsLimitIsTheRestoreJobsAndTheRestoreFitsInIt() throws IOException {
        Path bucketClaim = Files.createDirectories(dir.resolve("claims/bucket"));
        Fixtures.copyBucket(FIXTURE, "gzip", bucketClaim);
        Path dataClaim = Files.createDirectories(dir.resolve("claims/etcd-main-0"));
        try (ApiServer api = ApiServer.start()) {
            LauncherJar.Running launcher = LauncherJar.against(api, dir)
                    .start(
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
                            "auto",
                            "--wait",
                            "--timeout",
                            "8m");

            Job sizing = ApiPods.awaitJob(api, "demo", "sizing", List.of(), Duration.ofMinutes(2));
            PodTemplate sizingTemplate = ApiPods.template(sizing);
            assertThat(sizingTemplate.memoryLimit()).isEqualTo("512Mi");
            PodRun sizingPod = PodRun.of(sizingTemplate)
                    .claim("backup-bucket", bucketClaim)
                    .workDir(dir.resolve("pods"));
            PodExit sized = sizingPod.run(POD_TIMEOUT);
            assertThat(sized.exitCode()).as(sized.describe()).isZero();
            JsonNode estimate = sized.result().get("sizeEstimate");
            assertThat(estimate.get("keysAtMost").asLong())
                    .isGreaterThanOrEqualTo(
                            ExpectedState.stateJson(FIXTURE).get("keys").asLong());
            ApiPods.report(api, sizing, sizingPod.podName(), sized);

            Job restore = ApiPods.awaitJob(api, "demo", "restore", List.of(), Duration.ofMinutes(2));
            PodTemplate restoreTemplate = ApiPods.template(restore);
            long limitMi = (estimate.get("memoryLimitBytes").asLong() + (1 << 20) - 1) >> 20;
            assertThat(restoreTemplate.memoryLimit()).isEqualTo(limitMi + "Mi");
            // the rule's share, or more where that would leave less than the 128Mi heap every Job gets
            long floorPercent = ((128L << 20) * 100 + (limitMi << 20) - 1) / (limitMi << 20);
            long heapPercent = Math.max(estimate.get("heapPercent").asInt(), floorPercent);
            assertThat(restoreTemplate
                            .template()
                            .at("/spec/containers/0/env/0/value")
                            .asText())
                    .contains("-XX:MaxRAMPercentage=" + heapPercent + ".0");
            PodRun restorePod = PodRun.of(restoreTemplate)
                    .claim("backup-bucket", bucketClaim)
                    .claim("etcd-main-etcd-main-0", dataClaim)
                    .workDir(dir.resolve("pods"));
            PodExit placed = restorePod.run(POD_TIMEOUT);
            assertThat(placed.exitCode()).as(placed.describe()).isZero();
            ApiPods.report(api, restore, restorePod.podName(), placed);

            ProcessRun done = launcher.await(Duration.ofMinutes(2));
            assertThat(done.exitCode()).as(done.stdout() + done.stderr()).isZero();
            Matcher said = SIZED.matcher(done.stderr());
            assertThat(said.find()).as(done.stderr()).isTrue();
            assertThat(said.group(1)).isEqualTo(limitMi + "Mi");
            assertThat(said.group(2)).isEqualTo(Long.toString(heapPercent));
            assertThat(done.stdout()).contains("SUCCEEDED");
            JsonNode state = ExpectedState.stateJson(FIXTURE);
            assertThat(placed.result().get("kvSha256").asText())
                    .isEqualTo(state.get("kv_sha256").asText());
            ExpectedState.Served served = ExpectedState.serve(dataClaim.resolve("new.etcd"), dir.resolve("reader"));
            assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys(FIXTURE));
        }
    }
}
