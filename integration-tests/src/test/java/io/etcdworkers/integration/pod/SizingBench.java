package io.etcdworkers.integration.pod;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.testsupport.ProcessRun;
import io.etcdworkers.testsupport.pod.PodExit;
import io.etcdworkers.testsupport.pod.PodRun;
import io.etcdworkers.testsupport.pod.PodTemplate;
import io.etcdworkers.testsupport.pod.Podman;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The launcher's memory sizing against the kernel, on the benchmark buckets: a benchmark that
 * {@code bench/sizing.sh} runs (its name is no {@code *IT}, so failsafe runs it only when named).
 *
 * <p>For each bucket (a directory holding {@code bucket/v2/...} and the generator's
 * {@code expected.json}): {@code restore --memory-limit=auto --wait} against the mock API server;
 * the sizing Job it creates runs in a container of the image (512Mi, as rendered) and names a
 * limit; the restore Job the launcher then creates runs in a container at exactly that limit and
 * must reach the expected state; then the same rendered restore once more with a limit one sizing
 * step (64 MiB, the rule's rounding) lower, whose end (exit 0, or the kernel's OOM kill) is the
 * rule's margin. Each container's memory cgroup is read while it runs ({@link CgroupPeak}). One
 * Markdown row per bucket is appended to {@code sizing.out}.
 *
 * <p>System properties: {@code sizing.buckets} (comma-separated directories), {@code sizing.work}
 * (a directory for the claims and the pods' volumes, emptied per bucket), {@code sizing.out}.
 */
@Timeout(14_400)
class SizingBench {
    private static final long MIB = 1024 * 1024;
    private static final long STEP = 64 * MIB;
    private static final Duration POD_TIMEOUT = Duration.ofMinutes(90);
    /** The machine this runs on is shared and loaded: the mock API server's answers may take long. */
    private static final Duration CLIENT_TIMEOUT = Duration.ofMinutes(3);

    private static final String BUCKET_CLAIM = "backup-bucket";
    private static final String TARGET_CLAIM = "etcd-main-etcd-main-0";

    @Test
    void eachBucketRestoresInsideTheLimitTheSizingJobNames() throws IOException {
        Podman podman = Podman.require();
        Path work = Path.of(System.getProperty("sizing.work"));
        Path out = Path.of(System.getProperty("sizing.out"));
        for (String bucket : System.getProperty("sizing.buckets").split(",")) {
            String row = measure(podman, Path.of(bucket.strip()), work);
            Files.writeString(
                    out, row + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            System.out.println(row);
        }
    }

    private String measure(Podman podman, Path bucketDir, Path work) throws IOException {
        JsonNode expected =
                new ObjectMapper().readTree(bucketDir.resolve("expected.json").toFile());
        Path dir = work.resolve(bucketDir.getFileName());
        deleteTree(dir);
        Path dataClaim = Files.createDirectories(dir.resolve("claims/data"));
        try (ApiServer api = ApiServer.start(CLIENT_TIMEOUT)) {
            // on a loaded machine the client's first HTTPS connection can take longer than its 10 s
            // connect timeout: make it once before the launcher and the Job polls need it
            Awaitility.await("the mock API server's first answer")
                    .atMost(Duration.ofMinutes(3))
                    .ignoreExceptions()
                    .until(() -> api.client().getKubernetesVersion() != null);
            LauncherJar.Running launcher = LauncherJar.against(api, dir)
                    .clientTimeout(CLIENT_TIMEOUT)
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
                            "bucket",
                            "--store-claim",
                            BUCKET_CLAIM,
                            "--target-claim",
                            TARGET_CLAIM,
                            "--memory-limit",
                            "auto",
                            "--wait",
                            "--timeout",
                            "180m");

            Job sizing = ApiPods.awaitJob(api, "demo", "sizing", List.of(), Duration.ofMinutes(10));
            PodRun sizingPod = PodRun.of(ApiPods.template(sizing))
                    .claim(BUCKET_CLAIM, bucketDir)
                    .workDir(dir.resolve("pods"));
            Measured sized = run(sizingPod);
            assertThat(sized.exit().exitCode()).as(sized.exit().describe()).isZero();
            ApiPods.report(api, sizing, sizingPod.podName(), sized.exit());
            JsonNode estimate = sized.exit().result().get("sizeEstimate");

            Job restore = ApiPods.awaitJob(api, "demo", "restore", List.of(), Duration.ofMinutes(10));
            PodTemplate atLimit = ApiPods.template(restore);
            long limit = Quantity.bytes(atLimit.memoryLimit());
            Measured placed = run(PodRun.of(atLimit)
                    .claim(BUCKET_CLAIM, bucketDir)
                    .claim(TARGET_CLAIM, dataClaim)
                    .workDir(dir.resolve("pods")));
            ApiPods.report(api, restore, "restore-at-limit", placed.exit());
            ProcessRun done = launcher.await(Duration.ofMinutes(10));
            String exact = exactState(placed.exit(), expected);
            String heap = atLimit.template()
                    .at("/spec/containers/0/env/0/value")
                    .asText()
                    .replaceAll(".*-XX:MaxRAMPercentage=([0-9.]+).*", "$1");

            deleteTree(dataClaim);
            Files.createDirectories(dataClaim);
            Measured below = run(PodRun.of(withLimit(atLimit, limit - STEP))
                    .claim(BUCKET_CLAIM, bucketDir)
                    .claim(TARGET_CLAIM, dataClaim)
                    .workDir(dir.resolve("pods-below")));
            String belowState = below.exit().exitCode() == 0 ? exactState(below.exit(), expected) : "-";
            deleteTree(dir);
            return String.join(
                    " | ",
                    "| " + bucketDir.getFileName(),
                    expected.path("keys").asText() + " keys, rev "
                            + expected.path("revision").asText(),
                    estimate.path("keysAtMost").asText() + " keys, "
                            + estimate.path("databaseBytesAtMost").asLong() / MIB + " MiB db",
                    sized.summary(),
                    atLimit.memoryLimit() + ", heap " + heap + " %",
                    placed.summary() + ", " + exact,
                    "launcher exit " + done.exitCode(),
                    (limit - STEP) / MIB + "Mi",
                    below.summary() + ", " + belowState + " |");
        }
    }

    private static Measured run(PodRun pod) {
        var running = pod.start();
        try (CgroupPeak peak = CgroupPeak.watch(running.containerName())) {
            PodExit exit = running.awaitExit(POD_TIMEOUT);
            return new Measured(exit, peak.maxUsageBytes(), peak.maxRssMappedBytes(), peak.limitBytes());
        }
    }

    /** The worker's result against the generator's expected.json. */
    private static String exactState(PodExit exit, JsonNode expected) {
        if (exit.exitCode() != 0) {
            return "no state";
        }
        JsonNode result = exit.result();
        boolean exact = result.path("kvSha256")
                        .asText()
                        .equals(expected.path("kvSha256").asText())
                && result.path("metaSha256")
                        .asText()
                        .equals(expected.path("metaSha256").asText())
                && result.path("finalRevision").asLong()
                        == expected.path("revision").asLong()
                && result.path("keys").asLong() == expected.path("keys").asLong();
        System.out.println("result: " + result);
        assertThat(exact)
                .as("the restored state against expected.json: %s", result)
                .isTrue();
        return "kvSha256 " + result.path("kvSha256").asText().substring(0, 8)
                + ", metaSha256, revision, keys = expected";
    }

    private static PodTemplate withLimit(PodTemplate template, long bytes) {
        ObjectNode job = template.job().deepCopy();
        ObjectNode resources = (ObjectNode) job.at("/spec/template/spec/containers/0/resources");
        String mi = bytes / MIB + "Mi";
        ((ObjectNode) resources.path("limits")).put("memory", mi);
        ((ObjectNode) resources.path("requests")).put("memory", mi);
        return PodTemplate.of(job);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** A pod's end and the memory its container used. */
    private record Measured(PodExit exit, long maxUsage, long maxRssMapped, long cgroupLimit) {
        String summary() {
            long seconds = Duration.between(exit.startedAt(), exit.finishedAt()).toSeconds();
            return String.format(
                    "exit %d %s in %d s, peak %d MiB (rss+mapped %d MiB) of %d MiB",
                    exit.exitCode(), exit.reason(), seconds, maxUsage / MIB, maxRssMapped / MIB, cgroupLimit / MIB);
        }
    }

    /** A Kubernetes quantity in Mi or Gi, as the launcher renders memory. */
    private static final class Quantity {
        static long bytes(String q) {
            if (q.endsWith("Mi")) {
                return Long.parseLong(q.substring(0, q.length() - 2)) * MIB;
            }
            if (q.endsWith("Gi")) {
                return Long.parseLong(q.substring(0, q.length() - 2)) * 1024 * MIB;
            }
            throw new IllegalArgumentException("not a Mi or Gi quantity: " + q);
        }
    }
}
