package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.testsupport.pod.ClusterAccess;
import io.etcdworkers.testsupport.pod.PodRun;
import io.etcdworkers.testsupport.pod.PodTemplate;
import io.etcdworkers.testsupport.pod.PodTranslation;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the launcher renders, turned into {@code podman run} arguments as a kubelet would run the
 * pod (test-support's {@link PodRun}): every golden Job and CronJob translates with no field left
 * over, the security context, limits, environment and volumes arrive as the pod would get them, the
 * placement fields are declared without meaning on one machine, and a field the translation does
 * not know fails it. Nothing is run.
 */
@Timeout(60)
class RenderedPodTranslationTest {
    private static final Path GOLDEN = Path.of("src", "test", "resources", "JobFactoryTest");
    private static final Map<String, byte[]> BACKUP_SECRET = Map.of(
            "accessKeyID",
            bytes("AKIA-test"),
            "secretAccessKey",
            bytes("s3cr3t"),
            "endpoint",
            bytes("http://127.0.0.1:9"),
            "region",
            bytes("eu-1"),
            "bucketName",
            bytes("bkt"));
    private static final ClusterAccess CLUSTER =
            new ClusterAccess("localhost", 6443, "token-1", "-----BEGIN CERTIFICATE-----\n");

    @TempDir
    Path dir;

    static Stream<String> goldenCases() throws IOException {
        try (Stream<Path> cases = Files.list(GOLDEN)) {
            return cases.map(p -> p.getFileName().toString()).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenCases")
    void everyGoldenPodTemplateTranslatesWithNoFieldLeftOver(String name) throws IOException {
        for (JsonNode object :
                PodTemplate.parseYaml(Files.readString(GOLDEN.resolve(name).resolve("out.yaml")))) {
            PodTranslation run = node(PodTemplate.of(object)).translate();

            assertThat(run.argv())
                    .contains(
                            "--user=65532:65532",
                            "--group-add=65532",
                            "--read-only",
                            "--read-only-tmpfs=false",
                            "--cap-drop=ALL",
                            "--security-opt=no-new-privileges",
                            "--network=host");
            assertThat(run.argv())
                    .anyMatch(a -> a.startsWith("--memory="))
                    .anyMatch(a -> a.startsWith("--memory-swap="));
            assertThat(run.argv()).contains("--volume=" + run.terminationFile() + ":/dev/termination-log");
            assertThat(run.argv()).contains("--stop-timeout=" + run.graceSeconds());
        }
    }

    @Test
    void aRestoreJobBecomesTheContainerItsPodWouldBe() throws IOException {
        PodTemplate template = PodTemplate.single(Files.readString(GOLDEN.resolve("restore-s3/out.yaml")));
        PodRun pod = node(template).name("etcd-main-restore-x7k2p");

        PodTranslation run = pod.translate();

        List<String> argv = run.argv();
        String limit = template.template()
                .at("/spec/containers/0/resources/limits/memory")
                .asText();
        assertThat(limit).isEqualTo("3Gi");
        assertThat(argv).contains("--memory=3221225472", "--memory-swap=3221225472");
        assertThat(argv).contains("--env=POD_NAME=etcd-main-restore-x7k2p", "--env=POD_NAMESPACE=shoot--prod--main");
        assertThat(argv).contains("--volume=" + claim("etcd-main-etcd-main-0") + ":/var/etcd/data");
        assertThat(argv).contains("--hostname=etcd-main-restore-x7k2p");
        // the command replaces the image's entrypoint as a whole; args follow the image
        int image = argv.indexOf("registry.example/etcd-workers:0.1.0");
        assertThat(image).isPositive();
        assertThat(argv.get(image - 1)).startsWith("--entrypoint=[\"java\"");
        assertThat(argv.subList(image + 1, argv.size())).contains("--storage-provider=S3");

        // the Secret as its files, with the defaultMode, owned by the fsGroup
        String secretMount = argv.stream()
                .filter(a -> a.endsWith(":/var/etcd-backup:ro"))
                .findFirst()
                .orElseThrow();
        Path secretDir = Path.of(secretMount.substring("--volume=".length(), secretMount.indexOf(':')));
        Path key = secretDir.resolve("secretAccessKey");
        assertThat(Files.readString(key)).isEqualTo("s3cr3t");
        assertThat(mode(key.toRealPath())).isEqualTo(0440);
        assertThat(Files.getAttribute(key.toRealPath(), "unix:gid")).isEqualTo(65532);
        assertThat(Files.readSymbolicLink(secretDir.resolve("..data")).toString())
                .startsWith("..");

        // a disk emptyDir: a host directory (never a tmpfs), the fsGroup's, set-group-ID
        String scratch =
                argv.stream().filter(a -> a.endsWith(":/scratch")).findFirst().orElseThrow();
        Path scratchDir = Path.of(scratch.substring("--volume=".length(), scratch.lastIndexOf(':')));
        assertThat(scratchDir).isDirectory().startsWith(dir);
        assertThat(Files.getAttribute(scratchDir, "unix:gid")).isEqualTo(65532);
        assertThat(mode(scratchDir) & 02070).isEqualTo(02070);
        assertThat(argv).noneMatch(a -> a.startsWith("--tmpfs"));
        assertThat(run.sizeLimits()).containsEntry(scratchDir, "30Gi");
    }

    @Test
    void placementFieldsAreDeclaredWithoutMeaningAndListed() {
        PodTranslation run = node(golden("restore-placement")).translate();

        assertThat(run.withoutMeaning())
                .containsKeys(
                        "spec.nodeSelector",
                        "spec.affinity",
                        "spec.tolerations",
                        "spec.priorityClassName",
                        "spec.imagePullSecrets");
        assertThat(PodRun.fieldsWithoutMeaning()).anyMatch(f -> f.startsWith("spec.tolerations: "));
    }

    @Test
    void secretKeyRefAndFieldRefValuesAreFilledAsTheKubeletFillsThem() {
        String yaml = dryRun(
                "restore",
                "-n",
                "demo",
                "--etcd",
                "etcd-main",
                "--image",
                "img:1",
                "--storage-provider",
                "ECS",
                "--store-container",
                "bkt",
                "--store-secret",
                "etcd-backup",
                "--target-claim",
                "etcd-main-etcd-main-0");

        PodTranslation run = node(PodTemplate.single(yaml))
                .name("etcd-main-restore-abcde")
                .uid("0d3c5b7e-aaaa-bbbb")
                .translate();

        assertThat(run.argv())
                .contains(
                        "--env=ECS_ACCESS_KEY_ID=AKIA-test",
                        "--env=ECS_SECRET_ACCESS_KEY=s3cr3t",
                        "--env=ECS_ENDPOINT=http://127.0.0.1:9",
                        "--env=POD_NAME=etcd-main-restore-abcde",
                        "--env=POD_NAMESPACE=demo");
    }

    @Test
    void aSecretTheTestDidNotCreateKeepsThePodFromStarting() {
        PodRun pod = PodRun.of(golden("restore-s3"))
                .claim("etcd-main-etcd-main-0", claim("etcd-main-etcd-main-0"))
                .workDir(dir.resolve("pods"));

        assertThatThrownBy(pod::translate).hasMessageContaining("Secret etcd-backup");
    }

    @Test
    void aFieldTheTranslationDoesNotKnowFailsIt() {
        PodTemplate template = golden("compact-local");
        ObjectNode spec = (ObjectNode) template.template().get("spec");
        spec.put("hostNetwork", true);
        ((ObjectNode) spec.get("containers").get(0)).putObject("livenessProbe").putObject("exec");

        assertThatThrownBy(() -> node(template).translate())
                .hasMessageContaining("spec.hostNetwork = true")
                .hasMessageContaining("spec.containers[0].livenessProbe.exec");
    }

    @Test
    void verifyAndDrillCronJobsTranslate() {
        for (List<String> extra : List.<List<String>>of(
                List.of(), List.of("--drill", "--schedule", "43 3 * * *"), List.of("--schedule", "13 3 * * *"))) {
            List<String> args = new ArrayList<>(List.of(
                    "verify",
                    "-n",
                    "demo",
                    "--etcd",
                    "etcd-main",
                    "--image",
                    "img:1",
                    "--storage-provider",
                    "Local",
                    "--store-container",
                    "bkt",
                    "--store-claim",
                    "backup-bucket"));
            args.addAll(extra);
            PodTranslation run = node(PodTemplate.single(dryRun(args.toArray(String[]::new))))
                    .translate();

            assertThat(run.argv()).as("%s", extra).contains("--read-only", "--cap-drop=ALL");
        }
    }

    /** A node holding every claim and Secret the goldens name, and the API server a lease renewal reaches. */
    private PodRun node(PodTemplate template) {
        PodRun pod = PodRun.of(template)
                .workDir(dir.resolve("pods"))
                .secret("etcd-backup", BACKUP_SECRET)
                // the copy goldens' target and source stores
                .secret("etcd-backup-s3", BACKUP_SECRET)
                .secret("etcd-backup-gcs", BACKUP_SECRET)
                .secret("etcd-backup-abs", BACKUP_SECRET)
                .secret(
                        "kube-apiserver-etcd-encryption-configuration-a1b2c3d4",
                        Map.of("encryption-configuration.yaml", bytes("kind: EncryptionConfiguration\n")))
                .cluster(CLUSTER);
        for (String claim : List.of(
                "backup-bucket",
                "etcd-events-etcd-events-0",
                "etcd-main-etcd-main-0",
                "etcd-main-etcd-main-1",
                "etcd-main-etcd-main-2",
                "etcd-bucket",
                "team-a-rescue")) {
            pod.claim(claim, claim(claim));
        }
        return pod;
    }

    private Path claim(String name) {
        try {
            return Files.createDirectories(dir.resolve("claims").resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static PodTemplate golden(String name) {
        try {
            return PodTemplate.single(Files.readString(GOLDEN.resolve(name).resolve("out.yaml")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String dryRun(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--dry-run");
        int code = LauncherCli.execute(
                new CliContext(
                        Map.of(),
                        Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC),
                        context -> {
                            throw new AssertionError("a dry run needs no cluster");
                        },
                        new PrintWriter(out, true),
                        new PrintWriter(err, true)),
                all.toArray(String[]::new));
        assertThat(code).as("%s: %s", all, err).isZero();
        return out.toString();
    }

    private static int mode(Path file) throws IOException {
        return ((Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS)) & 07777;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
