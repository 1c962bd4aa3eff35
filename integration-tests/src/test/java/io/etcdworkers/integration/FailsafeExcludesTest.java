package io.etcdworkers.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.integration.ModulePoms.Module;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The etcd-3.5 failsafe run leaves out ITs by file path, in the pom of the module that holds them:
 * a pattern that matches none of that module's tests (the IT moved, or was renamed) would silently
 * run it twice, so every exclude must match a file under the module's src/test/java. And a module
 * with ITs must run failsafe, or they would not run at all.
 */
@Timeout(60)
class FailsafeExcludesTest {
    static Stream<String> modules() {
        return ModulePoms.all().stream().map(Module::artifactId);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modules")
    void everyExcludeMatchesATestOfItsModule(String artifactId) {
        Module module = ModulePoms.named(artifactId);
        List<Path> tests = module.testSources();
        List<String> excludes = module.buildPlugin("maven-failsafe-plugin").stream()
                .flatMap(plugin -> ModulePoms.descendants(plugin, "exclude").stream())
                .map(e -> e.getTextContent().strip())
                .toList();

        assertThat(excludes)
                .as("failsafe excludes of %s/pom.xml that match nothing under src/test/java", artifactId)
                .filteredOn(glob -> tests.stream().noneMatch(ExcludePattern.of(glob)::matches))
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modules")
    void aModuleWithItsRunsFailsafe(String artifactId) {
        Module module = ModulePoms.named(artifactId);
        boolean hasIts = module.testSources().stream()
                .anyMatch(p -> p.getFileName().toString().endsWith("IT.java"));

        assertThat(module.buildPlugin("maven-failsafe-plugin").isPresent() || !hasIts)
                .as("%s has ITs but no maven-failsafe-plugin in its build plugins", artifactId)
                .isTrue();
    }

    @ParameterizedTest(name = "{0} ~ {1}: {2}")
    @CsvSource({
        "**/store/s3/S3ObjectStoreIT.java, io/etcdworkers/store/s3/S3ObjectStoreIT.java, true",
        "**/store/S3ObjectStoreIT.java, io/etcdworkers/store/s3/S3ObjectStoreIT.java, false",
        "**/CrashRecoveryIT.java, io/etcdworkers/compaction/cli/CrashRecoveryIT.java, true",
        "**/CrashRecoveryIT.java, CrashRecoveryIT.java, true",
        "**/cli/StartScriptIT.java, io/etcdworkers/restore/cli/StartScriptIT.java, true",
        "**/cli/StartScriptIT.java, io/etcdworkers/restore/StartScriptIT.java, false",
        "**/restore/*IT.java, io/etcdworkers/restore/RestoreToTimeIT.java, true",
        "**/restore/*IT.java, io/etcdworkers/restore/cli/JsonLogIT.java, false",
        "**/OverlapRefusalIT.java, io/etcdworkers/compaction/cli/NoOverlapRefusalIT.java, false",
    })
    void aPatternMatchesAsSurefireMatchesIt(String glob, String path, boolean matches) {
        assertThat(ExcludePattern.of(glob).matches(Path.of(path))).isEqualTo(matches);
    }
}
