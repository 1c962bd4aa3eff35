package io.etcdworkers.integration.pod;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.pod.PodExit;
import io.etcdworkers.testsupport.pod.PodRun;
import io.etcdworkers.testsupport.pod.PodTemplate;
import io.etcdworkers.testsupport.pod.Podman;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Job kind the launcher renders besides the restore, from its {@code --dry-run} YAML, run in
 * containers of the image as a kubelet runs their pods, all on one Local bucket on a claim (a copy of
 * etcdbrctl v0.41.2's): the reading kinds first (verify, drill, extract, the verification and drill
 * CronJobs' Jobs), then the compaction CronJob's Job, which compacts the bucket and moves etcd-druid's
 * full-snapshot Lease forward through the mock API server (reached as a pod reaches its cluster: the
 * service variables and the ServiceAccount token's volume), then the compaction Job, which finds
 * nothing left to compact, and the drill once more, which restores the compacted bucket to the same
 * state.
 */
@Timeout(600)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WorkerPodsIT {
    private static final String FIXTURE = Fixtures.V0_41_2;
    private static final String CONTAINER = "gzip";
    private static final String BUCKET_CLAIM = "backup-bucket";
    private static final Duration POD_TIMEOUT = Duration.ofMinutes(3);

    @TempDir
    static Path dir;

    private static Podman podman;
    private static Path bucketClaim;
    private static JsonNode state;

    @BeforeAll
    static void bucket() throws IOException {
        podman = Podman.require();
        bucketClaim = Files.createDirectories(dir.resolve("claims/bucket"));
        Fixtures.copyBucket(FIXTURE, CONTAINER, bucketClaim);
        state = ExpectedState.stateJson(FIXTURE);
    }

    @Test
    @Order(1)
    void verifyJobReportsTheWholeRangeRestorable() {
        PodExit exit = run(PodTemplate.single(render("verify")));

        assertThat(exit.exitCode()).as(exit.describe()).isZero();
        assertThat(exit.result().get("restorable").get("toRevision").asLong())
                .isEqualTo(state.get("revision").asLong());
    }

    @Test
    @Order(2)
    void drillJobRestoresTheSourceStateIntoItsScratch() throws IOException {
        assertDrill(PodTemplate.single(render("verify", "--drill")), "drill Job");
    }

    @Test
    @Order(3)
    void extractJobWritesThePrefixsKeysToItsClaim() throws IOException {
        String prefix = "/registry/secrets/";
        Path output = Files.createDirectories(dir.resolve("claims/rescue"));
        PodExit exit = PodRun.of(PodTemplate.single(render("extract", "--prefix", prefix, "--output-claim", "rescue")))
                .claim(BUCKET_CLAIM, bucketClaim)
                .claim("rescue", output)
                .workDir(dir.resolve("pods"))
                .run(POD_TIMEOUT);

        assertThat(exit.exitCode()).as(exit.describe()).isZero();
        List<ExpectedState.Key> expected = ExpectedState.keys(FIXTURE).stream()
                .filter(k -> new String(Base64.getDecoder().decode(k.key()), StandardCharsets.UTF_8).startsWith(prefix))
                .toList();
        assertThat(expected).hasSizeGreaterThan(20);
        assertThat(exit.result().get("finalRevision").asLong())
                .isEqualTo(state.get("revision").asLong());
        assertThat(exit.result().get("extractedKeys").asLong()).isEqualTo(expected.size());
        List<String> written = new ArrayList<>();
        for (String line : Files.readAllLines(output.resolve("extract/index.jsonl"))) {
            String path = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(line)
                    .get("path")
                    .asText();
            written.add(Base64.getEncoder()
                    .encodeToString(Files.readAllBytes(output.resolve("extract").resolve(path + ".value"))));
        }
        assertThat(written)
                .containsExactlyInAnyOrderElementsOf(
                        expected.stream().map(ExpectedState.Key::value).toList());
        assertThat(Files.getAttribute(output.resolve("extract/index.jsonl"), "unix:uid"))
                .isEqualTo(65532);
    }

    @Test
    @Order(4)
    void verificationAndDrillCronJobsJobsRun() throws IOException {
        PodExit check = run(PodTemplate.single(render("verify", "--schedule", "13 3 * * *")));
        assertThat(check.exitCode()).as(check.describe()).isZero();
        assertThat(check.result().get("restorable").get("toRevision").asLong())
                .isEqualTo(state.get("revision").asLong());

        assertDrill(PodTemplate.single(render("verify", "--drill", "--schedule", "43 3 * * *")), "drill CronJob");
    }

    @Test
    @Order(5)
    void compactionCronJobsJobCompactsTheBucketAndRenewsTheLeaseThroughTheApiServer() throws IOException {
        try (ApiServer api = ApiServer.start()) {
            api.client()
                    .leases()
                    .inNamespace("demo")
                    .resource(new LeaseBuilder()
                            .withNewMetadata()
                            .withName("etcd-main-full-snap")
                            .withNamespace("demo")
                            .endMetadata()
                            .withNewSpec()
                            .withHolderIdentity("1")
                            .endSpec()
                            .build())
                    .create();
            PodTemplate template = PodTemplate.single(render(
                    "cronjob",
                    "--schedule",
                    "17 */6 * * *",
                    "--min-delta-revisions",
                    "0",
                    "--enable-snapshot-lease-renewal",
                    "--full-snapshot-lease-name",
                    "etcd-main-full-snap",
                    "--service-account",
                    "etcd-backup"));

            // the pod reaches the API server as a kubelet sets it up: service variables and the token's volume
            PodExit exit = PodRun.of(template)
                    .claim(BUCKET_CLAIM, bucketClaim)
                    .cluster(api.access())
                    .workDir(dir.resolve("pods"))
                    .run(POD_TIMEOUT);

            assertThat(exit.exitCode()).as(exit.describe()).isZero();
            JsonNode result = exit.result();
            assertThat(result.get("outcome").asText()).isEqualTo("succeeded");
            String uploaded = result.get("uploaded").get("name").asText();
            String revision = Long.toString(state.get("revision").asLong());
            assertThat(uploaded)
                    .startsWith(String.format(
                            "v2/Full-00000000-%08d-", state.get("revision").asLong()));
            assertThat(bucketClaim.resolve(CONTAINER).resolve(uploaded)).isRegularFile();
            assertThat(result.get("snapshotLease").get("updated").asBoolean())
                    .as(exit.describe())
                    .isTrue();
            assertThat(api.client()
                            .leases()
                            .inNamespace("demo")
                            .withName("etcd-main-full-snap")
                            .get()
                            .getSpec()
                            .getHolderIdentity())
                    .isEqualTo(revision);
        }
    }

    @Test
    @Order(6)
    void compactionJobThenFindsNothingToCompactAndTheDrillRestoresTheCompactedBucket() throws IOException {
        PodExit exit = run(PodTemplate.single(render("compact")));

        assertThat(exit.exitCode()).as(exit.describe()).isZero();
        assertThat(exit.result().get("outcome").asText()).isEqualTo("skipped");
        assertThat(exit.result().get("reason").asText()).contains("no deltas after the latest full snapshot");

        JsonNode drill = assertDrill(PodTemplate.single(render("verify", "--drill")), "drill of the compacted bucket");
        assertThat(drill.get("deltas").asInt()).isZero();
    }

    private static JsonNode assertDrill(PodTemplate template, String what) throws IOException {
        PodRun pod = PodRun.of(template).claim(BUCKET_CLAIM, bucketClaim).workDir(dir.resolve("pods"));
        PodExit exit = pod.run(POD_TIMEOUT);

        assertThat(exit.exitCode()).as(what + ": " + exit.describe()).isZero();
        JsonNode result = exit.result();
        assertThat(result.get("finalRevision").asLong())
                .as(what)
                .isEqualTo(state.get("revision").asLong());
        assertThat(result.get("kvSha256").asText())
                .as(what)
                .isEqualTo(state.get("kv_sha256").asText());
        assertThat(result.get("metaSha256").asText())
                .as(what)
                .isEqualTo(state.get("meta_sha256").asText());
        // the scratch emptyDir is a host directory: the drill's data dir, as etcd serves it
        Path restored = dir.resolve("pods").resolve(pod.podName()).resolve("volumes/scratch/drill/new.etcd");
        ExpectedState.Served served = ExpectedState.serve(restored, dir.resolve("reader-" + pod.podName()));
        assertThat(served.keys()).as(what).containsExactlyElementsOf(ExpectedState.keys(FIXTURE));
        return result;
    }

    private static PodExit run(PodTemplate template) {
        return PodRun.of(template)
                .claim(BUCKET_CLAIM, bucketClaim)
                .workDir(dir.resolve("pods"))
                .run(POD_TIMEOUT);
    }

    private static String render(String command, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                command,
                "-n",
                "demo",
                "--etcd",
                "etcd-main",
                "--image",
                podman.image(),
                "--storage-provider",
                "Local",
                "--store-container",
                CONTAINER,
                "--store-claim",
                BUCKET_CLAIM,
                "--memory-limit",
                "512Mi",
                "--memory-request",
                "512Mi"));
        args.addAll(List.of(extra));
        return LauncherJar.withoutCluster(dir).render(args.toArray(String[]::new));
    }
}
