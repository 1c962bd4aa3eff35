package io.etcdworkers.integration.pod;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.GeneratedBucket;
import io.etcdworkers.testsupport.ProcessRun;
import io.etcdworkers.testsupport.pod.PodExit;
import io.etcdworkers.testsupport.pod.PodRun;
import io.etcdworkers.testsupport.pod.PodTemplate;
import io.etcdworkers.testsupport.pod.Podman;
import io.etcdworkers.testsupport.pod.RunningPod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The faults a kubelet meets, on the launcher's restore Jobs run as their pods in containers of the
 * image: a memory limit too small ends in the kernel's OOM kill (exit 137, nothing placed), and the
 * launcher, given that pod's status through the API, reports it with the limit to rerun with; a
 * {@code podman stop} (SIGTERM, then SIGKILL after the grace period) mid-replay leaves the target
 * untouched and the scratch emptyDir usable by the container run again in the same pod.
 */
@Timeout(600)
class PodFaultsIT {
    private static final Duration POD_TIMEOUT = Duration.ofMinutes(4);
    private static final String NS = "demo";

    @TempDir
    Path dir;

    private static Podman podman;

    @BeforeAll
    static void runtime() {
        podman = Podman.require();
    }

    @Test
    void tooSmallALimitIsAnOomKillWithNothingPlacedAndTheLauncherSaysWhatToSet() throws IOException {
        // 300,000 keys: by the sizing rule (docs/tuning.md) a restore of them needs several times the
        // smallest limit the launcher renders (171Mi: 128Mi of heap at --heap-percent 75)
        Path bucketClaim = Files.createDirectories(dir.resolve("claims/bucket"));
        GeneratedBucket many = GeneratedBucket.create(bucketClaim.resolve("many"), GeneratedBucket.Compression.GZIP, 7);
        for (int d = 0; d < 6; d++) {
            for (int k = 0; k < 50_000; k++) {
                many.put("/registry/configmaps/many/d" + d + "/cm-" + k, 100);
            }
            many.cutDelta();
        }
        Path dataClaim = Files.createDirectories(dir.resolve("claims/data"));
        List<String> args = restore("many", "etcd-main-restore-oom", "171Mi");
        args.addAll(List.of("--heap-percent", "75"));

        PodExit exit = PodRun.of(
                        PodTemplate.single(LauncherJar.withoutCluster(dir).render(args.toArray(String[]::new))))
                .claim("backup-bucket", bucketClaim)
                .claim("etcd-main-etcd-main-0", dataClaim)
                .workDir(dir.resolve("pods"))
                .run(POD_TIMEOUT);

        assertThat(exit.exitCode()).as(exit.describe()).isEqualTo(137);
        assertThat(exit.oomKilled()).as(exit.describe()).isTrue();
        // a SIGKILL leaves the target's lock file (free: no process holds it), nothing of the data dir
        try (Stream<Path> placed = Files.list(dataClaim)) {
            assertThat(placed.map(p -> p.getFileName().toString()))
                    .as("the member's claim after the kill")
                    .isSubsetOf("new.etcd.lock");
        }

        try (ApiServer api = ApiServer.start()) {
            LauncherJar launcher = LauncherJar.against(api, dir);
            ProcessRun created = launcher.run(args.toArray(String[]::new));
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            Job job = api.client()
                    .batch()
                    .v1()
                    .jobs()
                    .inNamespace(NS)
                    .withName("etcd-main-restore-oom")
                    .get();
            assertThat(job).as("the Job the launcher created").isNotNull();
            ApiPods.report(api, job, "etcd-main-restore-oom-x7k2p", exit);

            ProcessRun status = launcher.run("status", "etcd-main-restore-oom");

            assertThat(status.stdout())
                    .contains(
                            "killed by the kernel's OOM killer (OOMKilled)",
                            "memory limit of 171Mi",
                            "--memory-limit=342Mi",
                            "exit code: 35");
            assertThat(status.exitCode()).as(status.stdout() + status.stderr()).isEqualTo(35);
        }
    }

    @Test
    void stoppedMidReplayLeavesTheTargetUntouchedAndTheScratchUsableByTheNextRun() throws Exception {
        Path bucketClaim = Files.createDirectories(dir.resolve("claims/bucket"));
        GeneratedBucket generated =
                GeneratedBucket.create(bucketClaim.resolve("long"), GeneratedBucket.Compression.GZIP, 4);
        for (int d = 0; d < 20; d++) {
            generated.hotKeys(100, 15, 600);
            generated.cutDelta();
        }
        Path dataClaim = Files.createDirectories(dir.resolve("claims/data"));
        List<String> replay = restore("long", "etcd-main-restore-stop", "1Gi");
        replay.addAll(List.of("--engine", "replay"));
        PodRun first = PodRun.of(
                        PodTemplate.single(LauncherJar.withoutCluster(dir).render(replay.toArray(String[]::new))))
                .claim("backup-bucket", bucketClaim)
                .claim("etcd-main-etcd-main-0", dataClaim)
                .workDir(dir.resolve("pods"));

        RunningPod running = first.start().awaitLog("replay start deltas=", Duration.ofMinutes(2));
        running.stop();
        PodExit stopped = running.awaitExit(Duration.ofSeconds(running.graceSeconds() + 30));

        assertThat(stopped.exitCode()).as(stopped.describe()).isEqualTo(40);
        assertThat(stopped.result().get("errorCode").asText()).isEqualTo("INTERRUPTED");
        try (Stream<Path> placed = Files.list(dataClaim)) {
            assertThat(placed).as("the member's claim after the stop").isEmpty();
        }

        // the container run again in the same pod: its emptyDirs are the stopped one's
        List<String> offline = restore("long", "etcd-main-restore-stop", "1Gi");
        offline.addAll(List.of("--engine", "offline"));
        PodExit again = PodRun.of(
                        PodTemplate.single(LauncherJar.withoutCluster(dir).render(offline.toArray(String[]::new))))
                .claim("backup-bucket", bucketClaim)
                .claim("etcd-main-etcd-main-0", dataClaim)
                .workDir(dir.resolve("pods"))
                .name(first.podName())
                .uid(first.uid())
                .run(POD_TIMEOUT);

        assertThat(again.exitCode()).as(again.describe()).isZero();
        assertThat(again.result().get("finalRevision").asLong()).isEqualTo(generated.revision());
        assertThat(dataClaim.resolve("new.etcd/member/snap/db")).isRegularFile();
        assertThat(dataClaim.resolve("new.etcd.part")).doesNotExist();
        Path scratch = dir.resolve("pods").resolve(first.podName()).resolve("volumes/scratch");
        try (Stream<Path> left = Files.list(scratch)) {
            assertThat(left).as("the scratch emptyDir after the second run").isEmpty();
        }
        ExpectedState.Served served = ExpectedState.serve(dataClaim.resolve("new.etcd"), dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(generated.revision());
    }

    private static List<String> restore(String container, String jobName, String memory) {
        return new ArrayList<>(List.of(
                "restore",
                "-n",
                NS,
                "--etcd",
                "etcd-main",
                "--image",
                podman.image(),
                "--storage-provider",
                "Local",
                "--store-container",
                container,
                "--store-claim",
                "backup-bucket",
                "--target-claim",
                "etcd-main-etcd-main-0",
                "--job-name",
                jobName,
                "--memory-limit",
                memory,
                "--memory-request",
                memory));
    }
}
