package io.etcdworkers.compaction.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.compaction.cli.CompactCommand;
import io.etcdworkers.compaction.compact.CompactionConfig;
import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.format.RestorePoint;
import io.etcdworkers.format.StopAt;
import io.etcdworkers.launcher.cli.CliContext;
import io.etcdworkers.launcher.cli.LauncherCli;
import io.etcdworkers.launcher.job.CompactFlags;
import io.etcdworkers.launcher.job.DefragFlags;
import io.etcdworkers.launcher.job.ExtractFlags;
import io.etcdworkers.launcher.job.JobRequest;
import io.etcdworkers.launcher.job.JobWork;
import io.etcdworkers.launcher.job.RestoreFlags;
import io.etcdworkers.launcher.job.StorageProvider;
import io.etcdworkers.launcher.job.StoreRef;
import io.etcdworkers.launcher.job.WorkerKind;
import io.etcdworkers.rebuild.RebuildConfig;
import io.etcdworkers.rebuild.engine.Engine;
import io.etcdworkers.rebuild.engine.KeyPrefix;
import io.etcdworkers.restore.RestoreConfig;
import io.etcdworkers.restore.cli.ExtractCommand;
import io.etcdworkers.restore.cli.RestoreCommand;
import io.etcdworkers.restore.extract.ExtractConfig;
import io.etcdworkers.restore.extract.OutputFormat;
import io.etcdworkers.workercli.StoreOptions;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The launcher's Job args are what the workers accept, and mean there what the request meant:
 * each request is built into a Job by the launcher's own {@code JobFactory} and its container is
 * parsed by the worker's own command line, as the pod would run it ({@link WorkerPod}); then the
 * worker's own configuration is built from the parse, which is where a value out of its range
 * would fail (exit 2) before anything is downloaded.
 *
 * <p>It lives in integration-tests, the one module whose classpath has both workers' command
 * lines and the launcher (all in test scope); the launcher itself depends on the contract only,
 * never on a worker.
 */
class LauncherArgsContractTest {
    static final StoreRef S3 = new StoreRef(StorageProvider.S3, "etcd-backups", "", null, "etcd-backup", null);
    static final StoreRef S3_FULL = new StoreRef(
            StorageProvider.S3, "etcd-backups", "shoot/etcd-main", "http://127.0.0.1:9000", "etcd-backup", null);
    private static final StoreRef LOCAL =
            new StoreRef(StorageProvider.Local, "etcd-main", "p", null, null, "bucket-pvc");
    static final RestoreFlags MINIMAL_RESTORE =
            RestoreFlags.builder("etcd-main-0").build();
    private static final RestoreFlags EVERY_RESTORE_FLAG = RestoreFlags.builder("etcd-main-0")
            .dataDir("/var/etcd/data/restored")
            .name("etcd-main-0")
            .initialCluster("etcd-main-0=https://etcd-main-0.peer:2380")
            .initialClusterToken("tok-1")
            .initialAdvertisePeerUrls("https://etcd-main-0.peer:2380")
            .skipHashCheck(true)
            .force(true)
            .embeddedEtcdQuotaBytes(4L << 30)
            .maxFetchers(8)
            .build();
    private static final RestoreFlags TO_TIME_LAST_GOOD = RestoreFlags.builder("etcd-main-0")
            .toTime("2026-12-01T04:04:05.5+01:00")
            .toLastGood(true)
            .build();
    private static final RestoreFlags TO_REVISION =
            RestoreFlags.builder("etcd-main-0").toRevision(123_456L).build();
    private static final ExtractFlags EVERY_EXTRACT_FLAG = ExtractFlags.builder("rescue", "/registry/secrets/team-a/")
            .output("/var/etcd-extract/team-a")
            .outputFormat("etcd")
            .toRevision(77L)
            .toLastGood(true)
            .force(true)
            .build();
    private static final ExtractFlags ENCRYPTED_EXTRACT = ExtractFlags.builder("rescue", "/registry/secrets/")
            .outputFormat("files")
            .toTime("2026-12-01T03:03:00Z")
            .encryptionConfig("kube-apiserver-etcd-encryption-configuration-a1b2c3d4", "encryption-configuration.yaml")
            .build();
    static final DefragFlags EVERY_TRIGGER_SET =
            new DefragFlags(1000L, 10L, 1L << 30, 0.25, Duration.ofSeconds(90), "replay");
    static final DefragFlags EVERY_TRIGGER_OFF = new DefragFlags(0L, 0L, 0L, 0.0, Duration.ZERO, null);
    static final CompactFlags EVERY_COMPACT_FLAG =
            new CompactFlags(5000L, 6L, 7L << 20, "lzw", false, Duration.ofMinutes(8), true, "etcd-main-full-snap");

    static Stream<Arguments> requests() {
        return Stream.of(
                Arguments.of("restore S3, worker defaults", restore(S3, MINIMAL_RESTORE, DefragFlags.workerDefaults())),
                Arguments.of(
                        "restore S3, prefix, endpoint, every restore flag",
                        restore(S3_FULL, EVERY_RESTORE_FLAG, DefragFlags.workerDefaults())),
                Arguments.of("restore Local", restore(LOCAL, MINIMAL_RESTORE, DefragFlags.workerDefaults())),
                Arguments.of(
                        "restore --to-time --to-last-good",
                        restore(S3, TO_TIME_LAST_GOOD, DefragFlags.workerDefaults())),
                Arguments.of("restore --to-revision", restore(S3, TO_REVISION, DefragFlags.workerDefaults())),
                Arguments.of(
                        "restore --to-revision --bump-revision --mark-compacted",
                        restore(S3, LauncherBumpArgsTest.TO_REVISION_BUMPED, DefragFlags.workerDefaults())),
                Arguments.of("extract, every flag", extract(S3, EVERY_EXTRACT_FLAG)),
                Arguments.of("extract, files with an encryption config", extract(S3, ENCRYPTED_EXTRACT)),
                Arguments.of("verify", checkRequest(WorkerKind.VERIFY, S3_FULL)),
                Arguments.of("drill, Local", checkRequest(WorkerKind.DRILL, LOCAL)),
                Arguments.of("sizing (--memory-limit=auto)", checkRequest(WorkerKind.SIZING, S3_FULL)),
                Arguments.of("restore, every trigger set", restore(S3, MINIMAL_RESTORE, EVERY_TRIGGER_SET)),
                Arguments.of("restore, every trigger 0 (off)", restore(S3, MINIMAL_RESTORE, EVERY_TRIGGER_OFF)),
                Arguments.of("compact S3, no flags", compact(S3, CompactFlags.none(), DefragFlags.workerDefaults())),
                Arguments.of("compact Local", compact(LOCAL, CompactFlags.none(), DefragFlags.workerDefaults())),
                Arguments.of(
                        "compact, every flag, lease renewal", compact(S3_FULL, EVERY_COMPACT_FLAG, EVERY_TRIGGER_SET)),
                Arguments.of(
                        "compact, defragment, every trigger 0 (off)",
                        compact(
                                S3,
                                new CompactFlags(null, null, null, "gzip", true, null, false, null),
                                new DefragFlags(0L, 0L, 0L, 0.0, Duration.ZERO, "offline"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void theWorkerAcceptsEveryFlagTheLauncherRenders(String name, JobRequest request) {
        WorkerPod pod = WorkerPod.of(request);

        assertThat(pod.spec().name()).isEqualTo(request.kind().subcommand());
        for (String arg : pod.args()) {
            String flag = arg.split("=", 2)[0];
            assertThat(pod.parsed().subcommand().hasMatchedOption(flag))
                    .as("%s matched", arg)
                    .isTrue();
        }
        assertThat(pod.parsed().subcommand().unmatched()).isEmpty();
        // what the worker builds from its flags before touching anything: out-of-range values fail here
        if (request.kind() != WorkerKind.VERIFY && request.kind() != WorkerKind.SIZING) {
            assertThat(rebuildConfig(pod)).isNotNull();
        }
    }

    @Test
    void everyMembersJobRestoresItsOwnMemberOfTheWholeCluster() {
        StringWriter yaml = new StringWriter();
        CliContext launcher = new CliContext(
                Map.of(),
                WorkerPod.CLOCK,
                context -> {
                    throw new AssertionError("--dry-run needs no cluster");
                },
                new PrintWriter(yaml, true),
                new PrintWriter(new StringWriter(), true));
        String cluster = "etcd-main-0=https://etcd-main-0.etcd-main-peer.shoot--dev.svc:2380,"
                + "etcd-main-1=https://etcd-main-1.etcd-main-peer.shoot--dev.svc:2380,"
                + "etcd-main-2=https://etcd-main-2.etcd-main-peer.shoot--dev.svc:2380";
        assertThat(
                        LauncherCli.execute(
                                launcher,
                                "restore",
                                "-n",
                                "shoot--dev",
                                "--etcd",
                                "etcd-main",
                                "--image",
                                "img:1",
                                "--storage-provider",
                                "S3",
                                "--store-container",
                                "etcd-backups",
                                "--store-secret",
                                "etcd-backup",
                                "--dry-run",
                                "--initial-cluster",
                                cluster,
                                "--initial-cluster-token",
                                "etcd-main",
                                "--member-claims",
                                "etcd-main-0=etcd-main-etcd-main-0,etcd-main-1=etcd-main-etcd-main-1,etcd-main-2=etcd-main-etcd-main-2"))
                .isZero();

        List<Job> jobs = Arrays.stream(yaml.toString().split("(?m)^---\\s*$"))
                .filter(d -> !d.isBlank())
                .map(d -> new KubernetesSerialization().unmarshal(d, Job.class))
                .toList();
        assertThat(jobs).hasSize(3);
        Set<String> names = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            Job job = jobs.get(i);
            names.add(job.getMetadata().getName());
            WorkerPod pod = WorkerPod.of(WorkerKind.RESTORE, job);
            EtcdMember member = restoreConfig(pod).rebuild().member();
            assertThat(member.name()).isEqualTo("etcd-main-" + i);
            assertThat(member.peerUrl())
                    .isEqualTo(URI.create("https://etcd-main-" + i + ".etcd-main-peer.shoot--dev.svc:2380"));
            assertThat(member.initialCluster()).isEqualTo(cluster);
            assertThat(member.clusterToken()).isEqualTo("etcd-main");
            String claim = "etcd-main-etcd-main-" + i;
            assertThat(job.getSpec().getTemplate().getSpec().getVolumes())
                    .anySatisfy(v -> assertThat(
                                    v.getPersistentVolumeClaim() == null
                                            ? null
                                            : v.getPersistentVolumeClaim().getClaimName())
                            .isEqualTo(claim));
        }
        assertThat(names).as("one Job name per member").hasSize(3);
    }

    @Test
    void theWorkerOutputTheLauncherSetsIsWhatTheWorkerReads() {
        WorkerPod pod = WorkerPod.of(checkRequest(WorkerKind.VERIFY, S3)
                .withOutput(
                        new io.etcdworkers.launcher.job.WorkerOutput("json", "http://pushgateway.monitoring:9091")));

        assertThat(pod.env())
                .containsEntry("ETCD_WORKER_LOG_FORMAT", "json")
                .containsEntry("ETCD_WORKER_METRICS_PUSHGATEWAY", "http://pushgateway.monitoring:9091");
        assertThat(pod.parsed().subcommand().matchedOptionValue("--metrics-pushgateway", (String) null))
                .as("not on the command line")
                .isNull();
        var spec = pod.parsed().subcommand().commandSpec();
        assertThat((String) spec.findOption("--metrics-pushgateway").getValue())
                .isEqualTo("http://pushgateway.monitoring:9091");
        assertThat((String) spec.findOption("--log-format").getValue()).isEqualTo("json");
    }

    @Test
    void everyEngineTheLauncherAllowsIsOneOfTheWorkers() {
        for (String engine : WorkerFlags.ENGINES) {
            WorkerPod pod =
                    WorkerPod.of(restore(S3, MINIMAL_RESTORE, new DefragFlags(null, null, null, null, null, engine)));
            assertThat(rebuildConfig(pod).engine().label()).isEqualTo(engine);
        }
    }

    @Test
    void restoreFlagsLandWhereTheRequestMeantThem() {
        WorkerPod pod = WorkerPod.of(restore(S3_FULL, EVERY_RESTORE_FLAG, DefragFlags.workerDefaults()));

        assertThat(pod.<StoreOptions.Provider>value(WorkerFlags.STORAGE_PROVIDER))
                .isEqualTo(StoreOptions.Provider.S3);
        assertThat(pod.<String>value(WorkerFlags.STORE_CONTAINER)).isEqualTo("etcd-backups");
        assertThat(pod.<String>value(WorkerFlags.STORE_PREFIX)).isEqualTo("shoot/etcd-main");
        assertThat(pod.<String>value(WorkerFlags.STORE_ENDPOINT_OVERRIDE)).isEqualTo("http://127.0.0.1:9000");
        RestoreConfig config = restoreConfig(pod);
        assertThat(config.rebuild().skipHashCheck()).isTrue();
        assertThat(config.force()).isTrue();
        assertThat(config.rebuild().member())
                .isEqualTo(new EtcdMember("etcd-main-0", URI.create("https://etcd-main-0.peer:2380"), "tok-1"));
        assertThat(config.dataDir()).isEqualTo(Path.of("/var/etcd/data/restored"));
        assertThat(config.rebuild().scratchDir()).isEqualTo(Path.of("/scratch"));
        assertThat(config.rebuild().settings().quotaBytes()).isEqualTo(4L << 30);
        assertThat(config.rebuild().settings().maxFetchers()).isEqualTo(8);
    }

    @Test
    void pointInTimeFlagsLandAsTheRestorePoint() {
        assertThat(restoreConfig(WorkerPod.of(restore(S3, TO_TIME_LAST_GOOD, DefragFlags.workerDefaults())))
                        .rebuild()
                        .point())
                .isEqualTo(new RestorePoint(new StopAt.AtTime(Instant.parse("2026-12-01T03:04:05.500Z")), true));
        assertThat(restoreConfig(WorkerPod.of(restore(S3, TO_REVISION, DefragFlags.workerDefaults())))
                        .rebuild()
                        .point())
                .isEqualTo(new RestorePoint(new StopAt.AtRevision(123_456), false));
        assertThat(restoreConfig(WorkerPod.of(restore(S3, MINIMAL_RESTORE, DefragFlags.workerDefaults())))
                        .rebuild()
                        .point())
                .isEqualTo(RestorePoint.LATEST);
    }

    @Test
    void extractFlagsLandWhereTheRequestMeantThem() {
        WorkerPod pod = WorkerPod.of(extract(S3, EVERY_EXTRACT_FLAG));

        assertThat(pod.spec().userObject()).isInstanceOf(ExtractCommand.class);
        ExtractConfig config = ((ExtractCommand) pod.spec().userObject()).config();
        assertThat(config.prefix()).isEqualTo(KeyPrefix.of("/registry/secrets/team-a/"));
        assertThat(config.output()).isEqualTo(Path.of("/var/etcd-extract/team-a"));
        assertThat(config.format()).isEqualTo(OutputFormat.etcd);
        assertThat(config.force()).isTrue();
        assertThat(config.rebuild().point()).isEqualTo(new RestorePoint(new StopAt.AtRevision(77), true));
        assertThat(config.rebuild().engine())
                .as("a data dir of the prefix alone: offline")
                .isEqualTo(Engine.OFFLINE);
    }

    @Test
    void theEncryptionConfigTheWorkerReadsIsTheFileTheJobMounts() {
        WorkerPod pod = WorkerPod.of(extract(S3, ENCRYPTED_EXTRACT));

        ExtractConfig config = ((ExtractCommand) pod.spec().userObject()).config();
        Path file = config.encryptionConfig().orElseThrow();
        assertThat(config.format()).isEqualTo(OutputFormat.files);
        var podSpec = pod.job().getSpec().getTemplate().getSpec();
        var mount = podSpec.getContainers().get(0).getVolumeMounts().stream()
                .filter(m -> file.startsWith(Path.of(m.getMountPath())))
                .findFirst()
                .orElseThrow();
        assertThat(mount.getReadOnly()).isTrue();
        var secret = podSpec.getVolumes().stream()
                .filter(v -> v.getName().equals(mount.getName()))
                .findFirst()
                .orElseThrow()
                .getSecret();
        assertThat(secret.getSecretName()).isEqualTo("kube-apiserver-etcd-encryption-configuration-a1b2c3d4");
        assertThat(secret.getItems())
                .singleElement()
                .satisfies(item -> assertThat(Path.of(mount.getMountPath()).resolve(item.getPath()))
                        .isEqualTo(file));

        StringWriter yaml = new StringWriter();
        CliContext launcher = new CliContext(
                Map.of(),
                WorkerPod.CLOCK,
                context -> {
                    throw new AssertionError("--dry-run needs no cluster");
                },
                new PrintWriter(yaml, true),
                new PrintWriter(new StringWriter(), true));
        assertThat(LauncherCli.execute(
                        launcher,
                        "extract",
                        "-n",
                        "shoot--dev",
                        "--etcd",
                        "etcd-main",
                        "--image",
                        "img:1",
                        "--storage-provider",
                        "S3",
                        "--store-container",
                        "etcd-backups",
                        "--store-secret",
                        "etcd-backup",
                        "--output-claim",
                        "rescue",
                        "--prefix",
                        "/registry/secrets/team-a/",
                        "--dry-run",
                        "--encryption-config-secret",
                        "apiserver-encryption",
                        "--encryption-config-key",
                        "enc.yaml"))
                .isZero();
        WorkerPod fromCli =
                WorkerPod.of(WorkerKind.EXTRACT, new KubernetesSerialization().unmarshal(yaml.toString(), Job.class));
        assertThat(((ExtractCommand) fromCli.spec().userObject()).config().encryptionConfig())
                .contains(file);
    }

    @Test
    void aLocalBucketIsTheDirectoryOnTheMountedClaim() {
        WorkerPod pod = WorkerPod.of(restore(LOCAL, MINIMAL_RESTORE, DefragFlags.workerDefaults()));

        assertThat(pod.<StoreOptions.Provider>value(WorkerFlags.STORAGE_PROVIDER))
                .isEqualTo(StoreOptions.Provider.Local);
        String container = pod.value(WorkerFlags.STORE_CONTAINER);
        assertThat(container).isEqualTo("/var/etcd-bucket/etcd-main");
        assertThat(pod.job()
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getVolumeMounts())
                .anyMatch(m -> container.startsWith(m.getMountPath() + "/"));
        assertThat(restoreConfig(pod).dataDir()).isEqualTo(Path.of(RestoreFlags.DEFAULT_DATA_DIR));
    }

    @Test
    void whatTheWorkerRefusesIsRefusedByItsOwnParser() {
        // the contract test would be worthless if the worker's parser accepted anything
        assertThatThrownBy(() -> WorkerPod.parse(
                        WorkerKind.RESTORE,
                        WorkerKind.RESTORE.command(),
                        List.of(WorkerFlags.DATA_DIR + "=/var/etcd/data/new.etcd", "--no-such-flag=1"),
                        Map.of()))
                .isInstanceOf(CommandLine.UnmatchedArgumentException.class);
        assertThatThrownBy(() -> WorkerPod.parse(
                        WorkerKind.COMPACT,
                        WorkerKind.COMPACT.command(),
                        List.of(WorkerFlags.DEFRAG_INTERVAL + "=5 minutes"),
                        Map.of()))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("not a duration");
    }

    /** What the worker's restore command builds from its flags, as it does before touching anything. */
    static RestoreConfig restoreConfig(WorkerPod pod) {
        return ((RestoreCommand) pod.spec().userObject()).config();
    }

    /** What the worker's compact command builds from its flags. */
    static CompactionConfig compactionConfig(WorkerPod pod) {
        return ((CompactCommand) pod.spec().userObject()).config();
    }

    /** The rebuild settings any of the commands builds. */
    static RebuildConfig rebuildConfig(WorkerPod pod) {
        if (pod.spec().userObject() instanceof ExtractCommand extract) {
            return extract.config().rebuild();
        }
        return pod.spec().userObject() instanceof RestoreCommand
                ? restoreConfig(pod).rebuild()
                : compactionConfig(pod).rebuild();
    }

    static JobRequest restore(StoreRef store, RestoreFlags flags, DefragFlags defrag) {
        return request(store, flags).defrag(defrag).build();
    }

    static JobRequest compact(StoreRef store, CompactFlags flags, DefragFlags defrag) {
        return request(store, flags)
                .defrag(defrag)
                .serviceAccountName(flags.enableSnapshotLeaseRenewal() ? "etcd-compactor" : null)
                .build();
    }

    static JobRequest extract(StoreRef store, ExtractFlags flags) {
        return request(store, flags).build();
    }

    static JobRequest checkRequest(WorkerKind kind, StoreRef store) {
        return request(store, JobWork.check(kind)).build();
    }

    private static JobRequest.Builder request(StoreRef store, JobWork work) {
        return JobRequest.builder("etcd-main", "shoot--dev", "etcd-workers:test", store, work)
                .backoffLimit(0);
    }
}
