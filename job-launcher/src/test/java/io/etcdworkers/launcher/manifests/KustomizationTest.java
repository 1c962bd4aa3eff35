package io.etcdworkers.launcher.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.schema.validator.Validator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * What can be checked of {@code manifests/kustomization.yaml} without kustomize (not available as a
 * Maven artifact): every file it and its components name exists and no manifest is left unnamed,
 * every object is schema-valid and namespace-scoped, the {@code images:} entry matches every
 * container, and the ServiceAccounts and Roles the objects refer to are defined.
 */
@Timeout(120)
class KustomizationTest {
    static final String NAMESPACE = "etcd-workers-demo";
    static final String IMAGE = "etcd-workers";
    private static final YAMLMapper YAML = new YAMLMapper();
    private static Validator validator;

    @BeforeAll
    static void loadSchema() {
        validator = Validator.newInstance();
    }

    /** One kustomization (the base or a component): its directory, its file and its objects. */
    record Unit(Path dir, JsonNode kustomization, List<Path> resources) {
        List<HasMetadata> objects() {
            List<HasMetadata> objects = new ArrayList<>();
            for (Path file : resources) {
                try {
                    ManifestFiles.documents(ManifestFiles.read(file))
                            .forEach(d -> objects.add(ManifestFiles.object(d)));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return objects;
        }
    }

    static Unit unit(Path dir) throws IOException {
        JsonNode k = YAML.readTree(dir.resolve("kustomization.yaml").toFile());
        List<Path> resources = new ArrayList<>();
        k.path("resources").forEach(r -> resources.add(dir.resolve(r.asString()).normalize()));
        return new Unit(dir, k, resources);
    }

    static Unit base() throws IOException {
        return unit(ManifestFiles.ROOT);
    }

    static List<Unit> components() throws IOException {
        List<Unit> units = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(ManifestFiles.ROOT.resolve("components"))) {
            for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                units.add(unit(dir));
            }
        }
        return units;
    }

    static List<Unit> all() throws IOException {
        List<Unit> all = new ArrayList<>(List.of(base()));
        all.addAll(components());
        return all;
    }

    @Test
    void theBaseSetsTheNamespaceAndTheImageOnce() throws IOException {
        JsonNode k = base().kustomization();
        assertThat(k.path("apiVersion").asString()).isEqualTo("kustomize.config.k8s.io/v1beta1");
        assertThat(k.path("kind").asString()).isEqualTo("Kustomization");
        assertThat(k.path("namespace").asString()).isEqualTo(NAMESPACE);
        assertThat(k.path("images")).hasSize(1);
        assertThat(k.path("images").get(0).path("name").asString()).isEqualTo(IMAGE);
    }

    @Test
    void componentsAreComponentsAndTheBaseNamesEachOfThem() throws IOException {
        String base = ManifestFiles.read(ManifestFiles.ROOT.resolve("kustomization.yaml"));
        assertThat(components())
                .extracting(u -> u.dir().getFileName().toString())
                .containsExactly("lease-renewal", "restore-example");
        for (Unit c : components()) {
            assertThat(c.kustomization().path("apiVersion").asString()).isEqualTo("kustomize.config.k8s.io/v1alpha1");
            assertThat(c.kustomization().path("kind").asString()).isEqualTo("Component");
            assertThat(base).contains("components/" + c.dir().getFileName());
        }
    }

    @Test
    void everyNamedFileExistsAndEveryManifestIsNamed() throws IOException {
        Set<Path> named = all().stream().flatMap(u -> u.resources().stream()).collect(Collectors.toSet());
        assertThat(named).allSatisfy(p -> assertThat(p).isRegularFile());
        try (Stream<Path> files = Files.walk(ManifestFiles.ROOT)) {
            List<Path> manifests = files.filter(p -> p.toString().endsWith(".yaml"))
                    .filter(p -> !p.getFileName().toString().equals("kustomization.yaml"))
                    .toList();
            assertThat(named).containsExactlyInAnyOrderElementsOf(manifests);
        }
    }

    @Test
    void everyObjectIsSchemaValidAndNothingIsClusterWide() throws IOException {
        for (Unit u : all()) {
            for (Path file : u.resources()) {
                for (String doc : ManifestFiles.documents(ManifestFiles.read(file))) {
                    assertThat(ManifestFiles.schemaErrors(validator, doc))
                            .as("schema errors in " + file)
                            .isEmpty();
                    HasMetadata o = ManifestFiles.object(doc);
                    assertThat(o.getKind())
                            .as(file.toString())
                            .isIn("ServiceAccount", "Role", "RoleBinding", "Job", "CronJob");
                    assertThat(o.getMetadata().getNamespace())
                            .as(file + " namespace")
                            .isIn(null, NAMESPACE);
                }
            }
        }
    }

    @Test
    void theSchemaCheckSeesAnUnknownFieldInEveryKindUsed() throws IOException {
        Set<String> kinds = new TreeSet<>();
        for (Unit u : all()) {
            for (Path file : u.resources()) {
                for (String doc : ManifestFiles.documents(ManifestFiles.read(file))) {
                    kinds.add(ManifestFiles.object(doc).getKind());
                    String broken = doc.stripTrailing() + "\nbogusTopLevelField: 1\n";
                    assertThat(ManifestFiles.schemaErrors(validator, broken))
                            .as(file.toString())
                            .contains("bogusTopLevelField");
                }
            }
        }
        assertThat(kinds).containsExactly("CronJob", "Job", "Role", "RoleBinding", "ServiceAccount");
    }

    @Test
    void theImagesEntryMatchesEveryContainer() throws IOException {
        List<String> images = all().stream()
                .flatMap(u -> u.objects().stream())
                .map(KustomizationTest::podSpec)
                .filter(s -> s != null)
                .flatMap(s -> s.getContainers().stream())
                .map(Container::getImage)
                .toList();
        assertThat(images).hasSize(2);
        // kustomize matches the name without tag or digest
        assertThat(images).allSatisfy(i -> assertThat(i.split("[:@]")[0]).isEqualTo(IMAGE));
    }

    @Test
    void theServiceAccountsAndRolesReferredToAreDefined() throws IOException {
        List<HasMetadata> base = base().objects();
        Set<String> accounts = names(base, ServiceAccount.class);
        assertThat(accounts).containsExactlyInAnyOrder("etcd-workers", "etcd-workers-launcher");
        for (Unit u : all()) {
            List<HasMetadata> objects = u.objects();
            Set<String> roles = names(objects, Role.class);
            for (HasMetadata o : objects) {
                PodSpec pod = podSpec(o);
                if (pod != null) {
                    assertThat(pod.getServiceAccountName()).isIn(accounts);
                }
                if (o instanceof RoleBinding b) {
                    assertThat(b.getRoleRef().getKind()).isEqualTo("Role");
                    assertThat(b.getRoleRef().getName()).isIn(roles);
                    assertThat(b.getSubjects()).allSatisfy(s -> {
                        assertThat(s.getKind()).isEqualTo("ServiceAccount");
                        assertThat(s.getName()).isIn(accounts);
                    });
                }
            }
        }
    }

    @Test
    void onlyTheLeaseComponentGrantsTheWorkersAnything() throws IOException {
        Map<String, List<String>> workerGrants = all().stream()
                .collect(Collectors.toMap(
                        u -> u.dir().getFileName().toString(),
                        u -> u.objects().stream()
                                .filter(o -> o instanceof RoleBinding)
                                .map(o -> (RoleBinding) o)
                                .filter(b -> b.getSubjects().stream()
                                        .anyMatch(s -> s.getName().equals("etcd-workers")))
                                .map(b -> b.getRoleRef().getName())
                                .toList()));
        assertThat(workerGrants)
                .containsEntry("manifests", List.of())
                .containsEntry("restore-example", List.of())
                .containsEntry("lease-renewal", List.of("etcd-main-full-snap-renewal"));
        Role lease = (Role) unit(ManifestFiles.ROOT.resolve("components/lease-renewal")).objects().stream()
                .filter(o -> o instanceof Role)
                .findFirst()
                .orElseThrow();
        assertThat(lease.getRules()).singleElement().satisfies(r -> {
            assertThat(r.getApiGroups()).containsExactly("coordination.k8s.io");
            assertThat(r.getResources()).containsExactly("leases");
            assertThat(r.getResourceNames())
                    .as("only the full-snapshot Lease, never the members'")
                    .containsExactly("etcd-main-full-snap");
            assertThat(r.getVerbs()).containsExactly("get", "patch");
        });
    }

    private static Set<String> names(List<HasMetadata> objects, Class<? extends HasMetadata> type) {
        return objects.stream()
                .filter(type::isInstance)
                .map(o -> o.getMetadata().getName())
                .collect(Collectors.toSet());
    }

    private static PodSpec podSpec(HasMetadata o) {
        if (o instanceof Job j) {
            return j.getSpec().getTemplate().getSpec();
        }
        if (o instanceof CronJob c) {
            return c.getSpec().getJobTemplate().getSpec().getTemplate().getSpec();
        }
        return null;
    }
}
