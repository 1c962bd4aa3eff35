package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.launcher.job.JobFactory;
import io.etcdworkers.launcher.kube.ClusterVersions;
import io.etcdworkers.launcher.kube.JobLauncher;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The CLI end to end against the mock API server: dry runs, env twins, exit codes, --wait. */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class LauncherCliTest {
    private static final String NS = "demo";
    private static final String JOB = "etcd-main-compaction-20261129-220000";
    private static final List<String> COMPACT = List.of(
            "compact",
            "-n",
            NS,
            "--etcd",
            "etcd-main",
            "--image",
            "img:1",
            "--storage-provider",
            "S3",
            "--store-container",
            "bkt",
            "--store-secret",
            "etcd-backup");

    KubernetesClient client;
    KubernetesMockServer server;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private int clientsMade;

    /** The mock API server reports a Kubernetes version the launcher creates Jobs on. */
    @BeforeEach
    void aSupportedKubernetesVersion() {
        ClusterVersions.reportSupported(server);
    }

    private int run(Map<String, String> env, List<String> args) {
        CliContext ctx = new CliContext(
                env,
                Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC),
                context -> {
                    clientsMade++;
                    return client;
                },
                new PrintWriter(out, true),
                new PrintWriter(err, true));
        return LauncherCli.execute(ctx, args.toArray(String[]::new));
    }

    private int run(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return run(Map.of(), all);
    }

    @Test
    void dryRunPrintsTheJobAndTouchesNoCluster() {
        assertThat(run(COMPACT, "--dry-run", "--min-delta-revisions", "500", "--defrag-interval", "5m"))
                .isZero();
        Job job = new KubernetesSerialization().unmarshal(out.toString(), Job.class);
        assertThat(job.getMetadata().getName()).isEqualTo(JOB);
        assertThat(job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs())
                .contains("--min-delta-revisions=500", "--defrag-interval=5m");
        assertThat(clientsMade).isZero();
        assertThat(client.batch().v1().jobs().inNamespace(NS).list().getItems()).isEmpty();
    }

    @Test
    void zeroSwitchesADefaultTriggerOffAndIsRenderedAsSuch() {
        assertThat(run(
                        COMPACT,
                        "--dry-run",
                        "--defrag-every-events",
                        "0",
                        "--defrag-interval",
                        "0",
                        "--defrag-fragmentation-ratio",
                        "0",
                        "--defrag-db-size-bytes",
                        "0"))
                .isZero();
        // the worker's picocli spec is not on the launcher's classpath (restore-worker brings the AWS SDK and
        // jetcd); integration-tests' LauncherArgsContractTest parses these args with it: all triggers off
        assertThat(new KubernetesSerialization()
                        .unmarshal(out.toString(), Job.class)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getArgs())
                .contains(
                        "--defrag-every-events=0",
                        "--defrag-interval=0s",
                        "--defrag-fragmentation-ratio=0.0",
                        "--defrag-db-size-bytes=0");
        assertThat(run(COMPACT, "--dry-run", "--defrag-every-events", "-1")).isEqualTo(2);
        assertThat(err.toString()).contains("defrag every events must not be negative (0: off): -1");
    }

    @Test
    void environmentTwinsFillFlagsAndFlagsWin() {
        List<String> noSecret = COMPACT.subList(0, COMPACT.size() - 2);
        assertThat(run(
                        Map.of("LAUNCHER_STORE_SECRET", "from-env", "LAUNCHER_STORE_PREFIX", "env-prefix"),
                        concat(noSecret, "--store-prefix", "flag-prefix", "--dry-run")))
                .isZero();
        Job job = new KubernetesSerialization().unmarshal(out.toString(), Job.class);
        assertThat(job.getSpec().getTemplate().getSpec().getVolumes())
                .anyMatch(v ->
                        v.getSecret() != null && v.getSecret().getSecretName().equals("from-env"));
        assertThat(job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs())
                .contains("--store-prefix=flag-prefix")
                .doesNotContain("--store-prefix=env-prefix");
    }

    @Test
    void badInputExitsTwoWithTheReasonAndCreatesNothing() {
        assertThat(run(COMPACT.subList(0, COMPACT.size() - 2))).isEqualTo(2);
        assertThat(err.toString()).contains("needs a credentials Secret (--store-secret)");
        assertThat(run(COMPACT, "--compression-policy", "brotli")).isEqualTo(2);
        assertThat(err.toString()).contains("compression policy");
        assertThat(run(COMPACT, "--memory-limit", "100Mi")).isEqualTo(2);
        assertThat(err.toString()).contains("memory request 2Gi exceeds the limit 100Mi");
        assertThat(run(List.of("restore", "--etcd", "e"))).isEqualTo(2);
        assertThat(err.toString()).contains("Missing required option: '--image=<image>'");
        assertThat(run(List.of("restore", "-n", NS, "--etcd", "e", "--image", "img:1", "--target-claim", "c")))
                .isEqualTo(2);
        assertThat(err.toString()).contains("give --storage-provider and --store-container, or --from-etcd");
        assertThat(client.batch().v1().jobs().inNamespace(NS).list().getItems()).isEmpty();
    }

    @Test
    void withoutANamespaceFlagTheContextsNamespaceIsUsedAndADryRunUsesDefault() {
        List<String> noNamespace = new ArrayList<>(COMPACT);
        noNamespace.subList(1, 3).clear();
        assertThat(run(noNamespace, "--dry-run")).isZero();
        assertThat(new KubernetesSerialization()
                        .unmarshal(out.toString(), Job.class)
                        .getMetadata()
                        .getNamespace())
                .isEqualTo("default");
        assertThat(clientsMade).isZero();

        assertThat(client.getNamespace()).isNotNull().isNotEqualTo("default");
        assertThat(run(noNamespace)).isZero();
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(client.getNamespace())
                        .withName(JOB)
                        .get())
                .isNotNull();
    }

    @Test
    void createsAndRefusesASecondRunForTheSameTarget() {
        assertThat(run(COMPACT)).isZero();
        assertThat(out.toString()).contains("job demo/" + JOB + " created");
        assertThat(run(COMPACT)).isEqualTo(50);
        assertThat(err.toString()).contains("still active");
        assertThat(client.batch().v1().jobs().inNamespace(NS).list().getItems()).hasSize(1);
    }

    @Test
    void waitPrintsTheOutcomeAndExitsWithTheWorkersCode() throws Exception {
        CompletableFuture<Integer> exit =
                CompletableFuture.supplyAsync(() -> run(COMPACT, "--wait", "--timeout", "30s"));
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        client.batch().v1().jobs().inNamespace(NS).withName(JOB).get() != null);
        client.pods()
                .inNamespace(NS)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(JOB + "-x")
                        .addToLabels("batch.kubernetes.io/job-name", JOB)
                        .endMetadata()
                        .withNewStatus()
                        .addNewContainerStatus()
                        .withName(JobFactory.CONTAINER)
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(12)
                        .withMessage("{\"kind\":\"compact\",\"outcome\":\"failed\",\"exitCode\":12,"
                                + "\"error\":\"sha mismatch in Incr-1-2.gz\"}")
                        .withFinishedAt("2026-11-29T22:03:00Z")
                        .endTerminated()
                        .endState()
                        .endContainerStatus()
                        .endStatus()
                        .build())
                .create();
        client.batch()
                .v1()
                .jobs()
                .inNamespace(NS)
                .withName(JOB)
                .editStatus(j -> new JobBuilder(j)
                        .editOrNewStatus()
                        .addToConditions(new JobConditionBuilder()
                                .withType("Failed")
                                .withStatus("True")
                                .withReason("PodFailurePolicy")
                                .withMessage("Container worker exited with 12")
                                .build())
                        .endStatus()
                        .build());

        assertThat(exit.get(20, TimeUnit.SECONDS)).isEqualTo(12);
        assertThat(out.toString())
                .contains("job demo/" + JOB + ": FAILED (PodFailurePolicy)")
                .contains("worker: kind=compact outcome=failed exitCode=12 error=sha mismatch in Incr-1-2.gz ("
                        + ErrorCode.HASH_MISMATCH.meaning() + ")")
                .contains("result: {\"kind\":\"compact\"");
        assertThat(err.toString()).contains("job " + JOB + ": active=0");
        assertThat(client.v1().events().inNamespace(NS).list().getItems())
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.getInvolvedObject().getName()).isEqualTo(JOB);
                    assertThat(e.getInvolvedObject().getKind()).isEqualTo("Job");
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getReason()).isEqualTo("WorkerFailed");
                    assertThat(e.getMessage()).contains("exitCode=12", "sha mismatch in Incr-1-2.gz");
                });
    }

    @Test
    void waitSaysWhyThePodIsPendingAndGivesUpOnAnImageThatCannotBePulled() {
        assertThat(run(COMPACT)).isZero();
        client.pods()
                .inNamespace(NS)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(JOB + "-x")
                        .addToLabels("batch.kubernetes.io/job-name", JOB)
                        .endMetadata()
                        .withNewStatus()
                        .withPhase("Pending")
                        .withStartTime("2026-11-29T21:40:00Z")
                        .addNewContainerStatus()
                        .withName(JobFactory.CONTAINER)
                        .withNewState()
                        .withNewWaiting()
                        .withReason("ImagePullBackOff")
                        .withMessage("Back-off pulling image \"img:1\"")
                        .endWaiting()
                        .endState()
                        .endContainerStatus()
                        .endStatus()
                        .build())
                .create();
        client.v1()
                .events()
                .inNamespace(NS)
                .resource(new io.fabric8.kubernetes.api.model.EventBuilder()
                        .withNewMetadata()
                        .withName("ev1")
                        .endMetadata()
                        .withNewInvolvedObject()
                        .withKind("Pod")
                        .withName(JOB + "-x")
                        .endInvolvedObject()
                        .withType("Warning")
                        .withReason("Failed")
                        .withCount(7)
                        .withLastTimestamp("2026-11-29T21:59:00Z")
                        .withMessage("Failed to pull image \"img:1\": not found")
                        .build())
                .create();

        // the clock says 22:00: the pod has failed to pull its image for 20 minutes
        assertThat(run(List.of("status", "-n", NS, "--wait", "--image-pull-limit", "15m", JOB)))
                .isEqualTo(55);
        assertThat(err.toString())
                .contains("pod " + JOB
                        + "-x: Pending, container worker waiting: ImagePullBackOff (Back-off pulling image \"img:1\")")
                .contains("event Pod/" + JOB + "-x: Warning Failed (x7): Failed to pull image \"img:1\": not found");
        assertThat(out.toString())
                .contains("job demo/" + JOB + ": POD_STUCK (ImagePullBackOff): pod " + JOB
                        + "-x cannot pull its image (ImagePullBackOff) for 20m (limit 15m)")
                .contains("exit code: 55");
        assertThat(client.batch().v1().jobs().inNamespace(NS).withName(JOB).get())
                .as("left running")
                .isNotNull();
    }

    @Test
    void statusListsAndReportsAndCancelDeletes() {
        assertThat(run(COMPACT)).isZero();
        assertThat(run(List.of("status", "-n", NS))).isZero();
        assertThat(out.toString()).containsPattern(JOB + "\\s+compaction\\s+etcd-main\\s+Running");
        assertThat(run(List.of("status", "-n", NS, JOB))).isZero();
        assertThat(out.toString()).contains("job demo/" + JOB + ": RUNNING");
        assertThat(run(List.of("cancel", "-n", NS, JOB))).isZero();
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        client.batch().v1().jobs().inNamespace(NS).withName(JOB).get() == null);
        assertThat(run(List.of("cancel", "-n", NS, JOB))).isEqualTo(54);
        assertThat(run(List.of("status", "-n", NS, JOB))).isEqualTo(54);
        assertThat(err.toString()).contains("no Job " + JOB);
    }

    @Test
    void statusOfAFailedJobExitsWithTheWorkersCodeOr53WithoutAResult() {
        assertThat(run(COMPACT)).isZero();
        client.batch()
                .v1()
                .jobs()
                .inNamespace(NS)
                .withName(JOB)
                .editStatus(j -> new JobBuilder(j)
                        .editOrNewStatus()
                        .addToConditions(new JobConditionBuilder()
                                .withType("Failed")
                                .withStatus("True")
                                .withReason("DeadlineExceeded")
                                .withMessage("Job was active longer than specified deadline")
                                .build())
                        .endStatus()
                        .build());
        assertThat(run(List.of("status", "-n", NS, JOB))).isEqualTo(53);
        assertThat(out.toString()).contains(": FAILED (DeadlineExceeded)").contains("exit code: 53");

        client.pods()
                .inNamespace(NS)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(JOB + "-x")
                        .addToLabels("batch.kubernetes.io/job-name", JOB)
                        .endMetadata()
                        .withNewStatus()
                        .addNewContainerStatus()
                        .withName(JobFactory.CONTAINER)
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(21)
                        .withMessage("{\"kind\":\"compact\",\"outcome\":\"failed\",\"exitCode\":21}")
                        .withFinishedAt("2026-11-29T22:03:00Z")
                        .endTerminated()
                        .endState()
                        .endContainerStatus()
                        .endStatus()
                        .build())
                .create();
        assertThat(run(List.of("status", "-n", NS, JOB))).isEqualTo(21);
        assertThat(out.toString()).contains("exit code: 21");
    }

    @Test
    void aDryRunWithoutNamespaceTakesTheContextsFromTheKubeconfigWithoutAClient() {
        List<String> noNamespace = new ArrayList<>(COMPACT);
        noNamespace.subList(1, 3).clear();
        noNamespace.add("--dry-run");
        CliContext ctx = new CliContext(
                Map.of(),
                Clock.systemUTC(),
                context -> {
                    throw new AssertionError("a dry run must not build a client");
                },
                new PrintWriter(out, true),
                new PrintWriter(err, true),
                context -> context == null ? "from-context" : null);
        assertThat(LauncherCli.execute(ctx, noNamespace.toArray(String[]::new))).isZero();
        assertThat(new KubernetesSerialization()
                        .unmarshal(out.toString(), Job.class)
                        .getMetadata()
                        .getNamespace())
                .isEqualTo("from-context");
    }

    @Test
    void cronjobIsAppliedAndReapplied() {
        List<String> cron = concat(COMPACT, "--schedule", "17 */6 * * *");
        cron.set(0, "cronjob");
        assertThat(run(cron)).isZero();
        assertThat(run(concat(cron, "--min-delta-snapshots", "4"))).isZero();
        CronJob applied = client.batch()
                .v1()
                .cronjobs()
                .inNamespace(NS)
                .withName("etcd-main-compaction")
                .get();
        assertThat(applied.getSpec().getConcurrencyPolicy()).isEqualTo("Forbid");
        assertThat(applied.getSpec()
                        .getJobTemplate()
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getArgs())
                .contains("--min-delta-snapshots=4");
        assertThat(new JobLauncher(client).list(NS)).isEmpty();
    }

    private static List<String> concat(List<String> a, String... b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(List.of(b));
        return all;
    }
}
