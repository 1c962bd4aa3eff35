package io.etcdworkers.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.fge.jsonschema.core.report.ProcessingReport;
import com.github.fge.jsonschema.main.JsonSchema;
import com.github.fge.jsonschema.main.JsonSchemaFactory;
import io.etcdworkers.launcher.kube.ClusterVersions;
import io.etcdworkers.launcher.kube.DruidEtcd;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --from-etcd}: the Jobs take the store, the members, their peer URLs and PVCs, the
 * full-snapshot Lease and the network labels from an etcd-druid {@code Etcd} resource (a fixture
 * checked against etcd-druid's own CRD schema), served by the mock API server; a flag given still wins.
 */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class FromEtcdCliTest {
    private static final Path FIXTURES = Path.of("src", "test", "resources", "etcd-druid");
    private static final String NS = "shoot--prod--main";
    private static final KubernetesSerialization K8S = new KubernetesSerialization();

    KubernetesClient client;
    KubernetesMockServer server;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** The mock API server reports a Kubernetes version the launcher creates Jobs on. */
    @BeforeEach
    void aSupportedKubernetesVersion() {
        ClusterVersions.reportSupported(server);
    }

    @BeforeEach
    void createTheEtcd() throws IOException {
        client.genericKubernetesResources(DruidEtcd.RESOURCE)
                .inNamespace(NS)
                .resource(etcdFixture())
                .create();
    }

    @Test
    void theFixtureIsAValidEtcdForEtcdDruidsCrdAndABrokenOneIsNot() throws Exception {
        JsonSchema schema = crdSchema();
        ObjectNode etcd = new ObjectMapper().valueToTree(etcdFixture());

        ProcessingReport valid = schema.validate(etcd);
        assertThat(valid.isSuccess()).as(valid.toString()).isTrue();

        ((ObjectNode) etcd.get("spec")).put("replicas", "three");
        ((ObjectNode) etcd.get("spec")).remove("backup");
        assertThat(schema.validate(etcd).isSuccess())
                .as("a wrong type and a missing required field")
                .isFalse();
    }

    @Test
    void aRestoreFromTheEtcdRestoresEveryMemberWithDruidsNames() {
        assertThat(run("restore", "-n", NS, "--from-etcd", "etcd-main", "--image", "img:1", "--dry-run"))
                .as(err.toString())
                .isZero();

        List<Job> jobs = jobs();
        assertThat(jobs).hasSize(3);
        String cluster = "etcd-main-0=https://etcd-main-0.etcd-main-peer.shoot--prod--main.svc:2380,"
                + "etcd-main-1=https://etcd-main-1.etcd-main-peer.shoot--prod--main.svc:2380,"
                + "etcd-main-2=https://etcd-main-2.etcd-main-peer.shoot--prod--main.svc:2380";
        for (int i = 0; i < 3; i++) {
            var pod = jobs.get(i).getSpec().getTemplate();
            assertThat(pod.getSpec().getContainers().get(0).getArgs())
                    .contains(
                            "--storage-provider=S3",
                            "--store-container=shoot--prod--main--3f7a1c",
                            "--store-prefix=shoot--prod--main--3f7a1c/etcd-main",
                            "--name=etcd-main-" + i,
                            "--initial-cluster=" + cluster,
                            "--initial-cluster-token=etcd-cluster",
                            "--initial-advertise-peer-urls=https://etcd-main-" + i
                                    + ".etcd-main-peer.shoot--prod--main.svc:2380");
            assertThat(pod.getSpec().getVolumes())
                    .anySatisfy(v -> assertThat(
                                    v.getSecret() == null ? null : v.getSecret().getSecretName())
                            .isEqualTo("etcd-backup"));
            String claim = "etcd-main-etcd-main-" + i;
            assertThat(pod.getSpec().getVolumes())
                    .anySatisfy(v -> assertThat(
                                    v.getPersistentVolumeClaim() == null
                                            ? null
                                            : v.getPersistentVolumeClaim().getClaimName())
                            .isEqualTo(claim));
            assertThat(pod.getMetadata().getLabels())
                    .containsEntry("networking.gardener.cloud/to-dns", "allowed")
                    .doesNotContainKey("role")
                    .doesNotContainKey("instance");
            assertThat(jobs.get(i).getMetadata().getLabels()).containsEntry("etcd-workers.io/etcd", "etcd-main");
        }
    }

    @Test
    void fromTheEtcdRendersTheSameJobsAsTheExplicitFlags() {
        assertThat(run("restore", "-n", NS, "--from-etcd", "etcd-main", "--image", "img:1", "--dry-run"))
                .isZero();
        String derived = out.toString();
        out.getBuffer().setLength(0);
        assertThat(run(
                        "restore",
                        "-n",
                        NS,
                        "--etcd",
                        "etcd-main",
                        "--image",
                        "img:1",
                        "--dry-run",
                        "--storage-provider",
                        "aws",
                        "--store-container",
                        "shoot--prod--main--3f7a1c",
                        "--store-prefix",
                        "shoot--prod--main--3f7a1c/etcd-main",
                        "--store-secret",
                        "etcd-backup",
                        "--gardener-network-labels",
                        "--initial-cluster-token",
                        "etcd-cluster",
                        "--initial-cluster",
                        "etcd-main-0=https://etcd-main-0.etcd-main-peer.shoot--prod--main.svc:2380,"
                                + "etcd-main-1=https://etcd-main-1.etcd-main-peer.shoot--prod--main.svc:2380,"
                                + "etcd-main-2=https://etcd-main-2.etcd-main-peer.shoot--prod--main.svc:2380",
                        "--member-claims",
                        "etcd-main-0=etcd-main-etcd-main-0,etcd-main-1=etcd-main-etcd-main-1,"
                                + "etcd-main-2=etcd-main-etcd-main-2"))
                .as(err.toString())
                .isZero();

        assertThat(derived).isEqualTo(out.toString());
    }

    @Test
    void aCompactionFromTheEtcdRenewsItsFullSnapshotLeaseAndFlagsStillWin() {
        assertThat(run(
                        "compact",
                        "-n",
                        NS,
                        "--from-etcd",
                        "etcd-main",
                        "--image",
                        "img:1",
                        "--dry-run",
                        "--store-prefix",
                        "elsewhere"))
                .as(err.toString())
                .isZero();

        List<String> args = jobs().get(0)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getArgs();
        assertThat(args)
                .contains(
                        "--full-snapshot-lease-name=etcd-main-full-snap",
                        "--store-prefix=elsewhere",
                        "--store-container=shoot--prod--main--3f7a1c");
    }

    @Test
    void aCopyFromTheEtcdCopiesAwayFromItsStoreWithBothSecretsMountedAsDruidMountsThem() {
        assertThat(run(
                        "copy",
                        "-n",
                        NS,
                        "--from-etcd",
                        "etcd-main",
                        "--image",
                        "img:1",
                        "--dry-run",
                        "--storage-provider",
                        "gcp",
                        "--store-container",
                        "etcd-backups-new",
                        "--store-secret",
                        "etcd-backup-new"))
                .as(err.toString())
                .isZero();

        Job job = jobs().get(0);
        var pod = job.getSpec().getTemplate().getSpec();
        var container = pod.getContainers().get(0);
        assertThat(container.getCommand()).endsWith("copy");
        assertThat(container.getArgs())
                .contains(
                        "--storage-provider=GCS",
                        "--store-container=etcd-backups-new",
                        "--source-storage-provider=S3",
                        "--source-store-container=shoot--prod--main--3f7a1c",
                        "--source-store-prefix=shoot--prod--main--3f7a1c/etcd-main");
        assertThat(container.getEnv())
                .anySatisfy(e -> assertThat(e.getName() + "=" + e.getValue())
                        .isEqualTo("SOURCE_AWS_APPLICATION_CREDENTIALS=/var/source-etcd-backup"))
                .anySatisfy(e -> assertThat(e.getName() + "=" + e.getValue())
                        .isEqualTo("GOOGLE_APPLICATION_CREDENTIALS=/var/.gcp/serviceaccount.json"));
        assertThat(pod.getVolumes())
                .anySatisfy(v -> {
                    assertThat(v.getName()).isEqualTo("source-etcd-backup-secret");
                    assertThat(v.getSecret().getSecretName()).isEqualTo("etcd-backup");
                })
                .anySatisfy(v -> {
                    assertThat(v.getName()).isEqualTo("etcd-backup-secret");
                    assertThat(v.getSecret().getSecretName()).isEqualTo("etcd-backup-new");
                });
        assertThat(container.getVolumeMounts())
                .anySatisfy(m -> assertThat(m.getName() + ":" + m.getMountPath())
                        .isEqualTo("source-etcd-backup-secret:/var/source-etcd-backup"))
                .anySatisfy(m ->
                        assertThat(m.getName() + ":" + m.getMountPath()).isEqualTo("etcd-backup-secret:/var/.gcp/"));
    }

    @Test
    void theMembersJobsAreCreatedSideBySideButASecondRunOfAMemberIsRefused() {
        assertThat(run("restore", "-n", NS, "--from-etcd", "etcd-main", "--image", "img:1"))
                .as(err.toString())
                .isZero();
        assertThat(client.batch().v1().jobs().inNamespace(NS).list().getItems())
                .hasSize(3)
                .allSatisfy(j -> assertThat(j.getMetadata().getLabels()).containsKey("etcd-workers.io/member"));

        assertThat(run(
                        "restore",
                        "-n",
                        NS,
                        "--from-etcd",
                        "etcd-main",
                        "--image",
                        "img:1",
                        "--target-claim",
                        "etcd-main-etcd-main-0"))
                .as("a whole restore while the members' run is active")
                .isEqualTo(50);
    }

    @Test
    void anEtcdThatIsNotThereIsAUsageErrorNamingIt() {
        assertThat(run("restore", "-n", NS, "--from-etcd", "etcd-nope", "--image", "img:1", "--dry-run"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("no Etcd shoot--prod--main/etcd-nope");
        assertThat(out.toString()).isEmpty();
    }

    private List<Job> jobs() {
        return Arrays.stream(out.toString().split("(?m)^---\\s*$"))
                .filter(d -> !d.isBlank())
                .map(d -> K8S.unmarshal(d, Job.class))
                .toList();
    }

    private int run(String... args) {
        CliContext ctx = new CliContext(
                Map.of(),
                Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC),
                context -> client,
                new PrintWriter(out, true),
                new PrintWriter(err, true));
        return LauncherCli.execute(ctx, new ArrayList<>(List.of(args)).toArray(String[]::new));
    }

    private static GenericKubernetesResource etcdFixture() throws IOException {
        return K8S.unmarshal(Files.readString(FIXTURES.resolve("etcd-main.yaml")), GenericKubernetesResource.class);
    }

    /** The v1alpha1 schema, read as the YAML says (not through a model class that could reshape it). */
    private static JsonSchema crdSchema() throws Exception {
        String json = tools.jackson.dataformat.yaml.YAMLMapper.builder()
                .build()
                .readTree(FIXTURES.resolve("druid.gardener.cloud_etcds.yaml").toFile())
                .toString();
        JsonNode crd = new ObjectMapper().readTree(json);
        for (JsonNode version : crd.get("spec").get("versions")) {
            if (version.get("name").asText().equals("v1alpha1")) {
                return JsonSchemaFactory.byDefault()
                        .getJsonSchema(version.get("schema").get("openAPIV3Schema"));
            }
        }
        throw new AssertionError("no v1alpha1 in the CRD");
    }
}
