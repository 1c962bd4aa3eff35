package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.schema.validator.ValidationMessage;
import io.fabric8.kubernetes.schema.validator.Validator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every provider, through the CLI as a user runs it: the {@code --dry-run} restore Job and
 * compaction CronJob validate against the Kubernetes OpenAPI schema, the worker is told etcdbrctl's name,
 * and the Secret reaches the pod as etcd-druid gives it to its backup sidecar (its
 * {@code GetProviderEnvVars} and volume mounts): at {@code /var/.gcp/} for GCS, as secretKeyRefs
 * for ECS, at {@code /var/etcd-backup} with {@code <PROVIDER>_APPLICATION_CREDENTIALS} for the others.
 * (Every spelling etcd-druid takes is {@code StorageProvidersTest}'s.)
 */
@Timeout(120)
class ProviderDryRunTest {
    private static final List<String> POD = List.of(
            "-n",
            "demo",
            "--etcd",
            "etcd-main",
            "--image",
            "img:1",
            "--store-container",
            "bkt",
            "--store-prefix",
            "etcd-main");
    private static final String SECRET = "etcd-backup";
    private static Validator validator;

    @BeforeAll
    static void loadSchema() {
        validator = Validator.newInstance();
    }

    static Stream<Arguments> providers() {
        return Stream.of(
                Arguments.of("S3", "/var/etcd-backup", Map.of("AWS_APPLICATION_CREDENTIALS", "/var/etcd-backup")),
                Arguments.of("ABS", "/var/etcd-backup", Map.of("AZURE_APPLICATION_CREDENTIALS", "/var/etcd-backup")),
                Arguments.of(
                        "GCS", "/var/.gcp/", Map.of("GOOGLE_APPLICATION_CREDENTIALS", "/var/.gcp/serviceaccount.json")),
                Arguments.of(
                        "Swift", "/var/etcd-backup", Map.of("OPENSTACK_APPLICATION_CREDENTIALS", "/var/etcd-backup")),
                Arguments.of("OSS", "/var/etcd-backup", Map.of("ALICLOUD_APPLICATION_CREDENTIALS", "/var/etcd-backup")),
                Arguments.of(
                        "OCS", "/var/etcd-backup", Map.of("OPENSHIFT_APPLICATION_CREDENTIALS", "/var/etcd-backup")),
                Arguments.of(
                        "ECS",
                        null,
                        Map.of(
                                "ECS_ENDPOINT",
                                "secret etcd-backup key endpoint",
                                "ECS_ACCESS_KEY_ID",
                                "secret etcd-backup key accessKeyID",
                                "ECS_SECRET_ACCESS_KEY",
                                "secret etcd-backup key secretAccessKey")),
                Arguments.of("Local", null, Map.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("providers")
    void everyDryRunValidatesAndGivesTheSecretAsEtcdDruidDoes(
            String provider, String mountPath, Map<String, String> credentialsEnv) throws IOException {
        List<String> store = provider.equals("Local")
                ? List.of("--storage-provider", provider, "--store-claim", "bucket-pvc")
                : List.of("--storage-provider", provider, "--store-secret", SECRET);
        // a compaction Job is the CronJob's job template; the restore adds the target volume
        for (List<String> command : List.of(
                List.of("restore", "--target-claim", "etcd-main-etcd-main-0"),
                List.of("cronjob", "--schedule", "17 */6 * * *"))) {
            String yaml = dryRun(concat(command, POD, store));

            assertThat(schemaErrors(yaml)).as("%s %s", provider, command.get(0)).isEmpty();
            PodSpec pod = command.get(0).equals("cronjob")
                    ? new KubernetesSerialization()
                            .unmarshal(yaml, CronJob.class)
                            .getSpec()
                            .getJobTemplate()
                            .getSpec()
                            .getTemplate()
                            .getSpec()
                    : new KubernetesSerialization()
                            .unmarshal(yaml, Job.class)
                            .getSpec()
                            .getTemplate()
                            .getSpec();
            Container worker = pod.getContainers().get(0);
            assertThat(worker.getArgs()).contains("--storage-provider=" + provider);
            assertThat(credentials(worker))
                    .as("%s %s", provider, command.get(0))
                    .containsExactlyInAnyOrderEntriesOf(credentialsEnv);
            List<VolumeMount> secretMounts = worker.getVolumeMounts().stream()
                    .filter(m -> m.getName().equals("etcd-backup-secret"))
                    .toList();
            List<Volume> secretVolumes =
                    pod.getVolumes().stream().filter(v -> v.getSecret() != null).toList();
            if (mountPath == null) {
                assertThat(secretMounts).isEmpty();
                assertThat(secretVolumes).isEmpty();
            } else {
                assertThat(secretMounts).singleElement().satisfies(m -> {
                    assertThat(m.getMountPath()).isEqualTo(mountPath);
                    assertThat(m.getReadOnly()).isTrue();
                });
                assertThat(secretVolumes)
                        .singleElement()
                        .satisfies(
                                v -> assertThat(v.getSecret().getSecretName()).isEqualTo(SECRET));
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"aws, S3", "gcp, GCS", "alicloud, OSS", "ocs, OCS", "dell, ECS", "local, Local"})
    void etcdDruidsSpellingsReachTheWorkerAsEtcdbrctlsNames(String flag, String name) {
        List<String> store =
                name.equals("Local") ? List.of("--store-claim", "bucket-pvc") : List.of("--store-secret", SECRET);
        String yaml = dryRun(concat(List.of("compact", "--storage-provider", flag), POD, store));

        assertThat(new KubernetesSerialization()
                        .unmarshal(yaml, Job.class)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getArgs())
                .contains("--storage-provider=" + name);
    }

    @ParameterizedTest
    @CsvSource({
        "Azure, unknown storage provider \"Azure\"; expected one of S3 (aws, stackit), ABS (azure)",
        "OSS, the OSS provider needs a credentials Secret (--store-secret)",
        "dell, the ECS provider needs a credentials Secret (--store-secret)"
    })
    void aProviderEtcdDruidRefusesOrOneWithoutItsSecretIsAUsageError(String flag, String message) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = LauncherCli.execute(
                context(out, err),
                concat(List.of("compact", "--dry-run", "--storage-provider", flag), POD, List.of())
                        .toArray(String[]::new));

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains(message);
        assertThat(out.toString()).isEmpty();
    }

    private static String dryRun(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(args);
        all.add("--dry-run");
        int code = LauncherCli.execute(context(out, err), all.toArray(String[]::new));
        assertThat(code).as("%s: %s", args, err).isZero();
        return out.toString();
    }

    private static CliContext context(StringWriter out, StringWriter err) {
        return new CliContext(
                Map.of(),
                Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC),
                context -> {
                    throw new AssertionError("a dry run needs no cluster");
                },
                new PrintWriter(out, true),
                new PrintWriter(err, true));
    }

    /** The container's variables other than the ones every Job has, a secretKeyRef as "secret S key K". */
    private static Map<String, String> credentials(Container worker) {
        return worker.getEnv().stream()
                .filter(e -> !List.of("JAVA_TOOL_OPTIONS", "POD_NAME", "POD_NAMESPACE", "STORAGE_CONTAINER")
                        .contains(e.getName()))
                .collect(Collectors.toMap(
                        EnvVar::getName,
                        e -> e.getValue() != null
                                ? e.getValue()
                                : "secret " + e.getValueFrom().getSecretKeyRef().getName() + " key "
                                        + e.getValueFrom().getSecretKeyRef().getKey()));
    }

    private static String schemaErrors(String yaml) throws IOException {
        return validator.validate(yaml).getMessages().stream()
                .filter(m -> m.getLevel() == ValidationMessage.Level.ERROR)
                .map(m -> m.getSchema() + ": " + m.getMessage())
                .collect(Collectors.joining("\n"));
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        return Stream.of(parts).flatMap(List::stream).toList();
    }
}
