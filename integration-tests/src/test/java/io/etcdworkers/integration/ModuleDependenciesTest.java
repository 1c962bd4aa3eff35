package io.etcdworkers.integration;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.integration.ModulePoms.Dependency;
import io.etcdworkers.integration.ModulePoms.Module;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The modules depend on the layers below them as docs/architecture.md#parts draws them, and on
 * no others: the arrows of the table below are every project dependency a module's pom may
 * declare outside test scope (a new module needs its row). In test scope a module may take
 * test-support, and only the few below otherwise.
 */
@Timeout(60)
class ModuleDependenciesTest {
    private static final String GROUP = "io.etcdworkers";

    private static final Map<String, Set<String>> ARROWS = Map.ofEntries(
            entry("worker-contract", Set.of()),
            entry("test-support", Set.of()),
            entry("etcd-bolt", Set.of()),
            entry("local-files", Set.of()),
            entry("backup-store", Set.of("worker-contract")),
            entry("backup-store-cloud", Set.of("backup-store")),
            entry("backup-format", Set.of("backup-store", "local-files")),
            entry("etcd-local", Set.of("worker-contract", "local-files")),
            entry("rebuild", Set.of("backup-format", "etcd-local", "etcd-bolt", "backup-store")),
            entry("worker-cli", Set.of("rebuild", "backup-store-cloud")),
            entry("restore-worker", Set.of("worker-cli")),
            entry("compaction-worker", Set.of("worker-cli")),
            entry("job-specs", Set.of("worker-contract")),
            entry("job-launcher", Set.of("job-specs")),
            entry("integration-tests", Set.of()),
            entry("benchmark", Set.of("worker-cli")));

    /** Test-scope project dependencies besides test-support. */
    private static final Map<String, Set<String>> TEST_ARROWS = Map.of(
            // SwiftObjectStoreIT: what a segmented upload leaves is no snapshot to the catalog
            "backup-store-cloud", Set.of("backup-format"),
            "integration-tests", Set.of("restore-worker", "compaction-worker", "job-launcher"));

    /** The cloud SDKs' groups: the bucket format must build without any of them. */
    private static final Set<String> CLOUD_SDKS = Set.of("software.amazon.awssdk", "com.azure", "com.google.cloud");

    static Stream<String> modules() {
        return ModulePoms.all().stream().map(Module::artifactId);
    }

    @Test
    void everyModuleHasItsRowOfArrows() {
        assertThat(ModulePoms.all())
                .extracting(Module::artifactId)
                .containsExactlyInAnyOrderElementsOf(ARROWS.keySet());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modules")
    void dependsOnTheLayersBelowItAndNoOthers(String artifactId) {
        List<Dependency> project = ModulePoms.named(artifactId).dependencies().stream()
                .filter(d -> d.groupId().equals(GROUP))
                .toList();

        assertThat(names(project.stream().filter(d -> !d.scope().equals("test"))))
                .as("%s's project dependencies outside test scope", artifactId)
                .isEqualTo(new TreeSet<>(ARROWS.get(artifactId)));
        assertThat(names(project.stream().filter(d -> d.scope().equals("test"))))
                .as("%s's project dependencies in test scope, test-support aside", artifactId)
                .isSubsetOf(TEST_ARROWS.getOrDefault(artifactId, Set.of()));
    }

    @Test
    void etcdBoltHasNoDependenciesAtAll() {
        assertThat(ModulePoms.named("etcd-bolt").dependencies())
                .filteredOn(d -> !d.scope().equals("test"))
                .isEmpty();
    }

    @Test
    void theBucketFormatBuildsWithoutACloudSdk() {
        Set<String> closure = new HashSet<>();
        Deque<String> next = new ArrayDeque<>(List.of("backup-format"));
        while (!next.isEmpty()) {
            String artifactId = next.pop();
            if (closure.add(artifactId)) {
                ModulePoms.named(artifactId).dependencies().stream()
                        .filter(d -> d.groupId().equals(GROUP) && !d.scope().equals("test"))
                        .forEach(d -> next.push(d.artifactId()));
            }
        }
        assertThat(closure)
                .as("backup-format and the modules it builds on")
                .containsExactlyInAnyOrder("backup-format", "backup-store", "local-files", "worker-contract");
        assertThat(closure.stream()
                        .flatMap(m -> ModulePoms.named(m).dependencies().stream())
                        .filter(d -> !d.scope().equals("test")))
                .as("what they depend on")
                .noneMatch(d -> CLOUD_SDKS.stream().anyMatch(d.groupId()::startsWith));
    }

    private static Set<String> names(Stream<Dependency> dependencies) {
        return dependencies
                .map(Dependency::artifactId)
                .filter(a -> !a.equals("test-support"))
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
